# Every target bootstraps .venv itself: a fresh machine needs only python3.11, make and PyPI.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Benchmark peers live in their own environments so that they never leak into the product.
BENCH_VENV := .venv-bench

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	@touch $(STAMP)

# `make run PORT=13051 HTTP_PORT=8001` when 13050 or 8000 is taken (another server, another
# checkout); the error then names the variable that moves the port that was taken.
run: $(STAMP)
	@GAUNTLET_VIA_MAKE=1 $(BIN)/gauntlet demo --ladder $(if $(PORT),--port $(PORT)) \
	$(if $(HTTP_PORT),--http-port $(HTTP_PORT))

# pytest exits 5 when it collected nothing: that is a failure here, never a silent pass.
test: $(STAMP)
	@bash tools/system-packages.sh
	@$(BIN)/pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict games protocols stats
	$(BIN)/mypy server bots bench
	cd examples/connect4 && ../../$(BIN)/mypy connect4

# The product is installed into it too (-e .): its dependencies change with pyproject.toml.
$(BENCH_VENV)/.installed: bench/requirements.txt pyproject.toml constraints.txt
	@test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV) || python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -c constraints.txt -r bench/requirements.txt -e .
	@touch $@

bench: $(STAMP) $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python -m bench

clean:
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache .ruff_cache

# `make fuzz`: coverage-guided atheris runs of the codecs, FUZZ_SECONDS each (FUZZ_TARGETS
# picks some: sc_server kettle_server kettle_decoder blokus_move hearth_options). Without
# atheris (no wheel for this machine) the same targets run as long hypothesis searches.
.PHONY: fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_STAMP := $(VENV)/.installed-fuzz
$(FUZZ_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test,fuzz]' \
		|| echo "make fuzz: atheris did not install; the hypothesis fallback will run" >&2
	@touch $@

fuzz: $(FUZZ_STAMP)
	$(BIN)/python -m fuzz --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Scale-out soak (docs/scale.md): 1,000 short games on 4 `gauntlet worker`s over real Redis
# and PostgreSQL, 0 lost and 0 duplicated, games/min against one process. GAMES=N to shorten.
.PHONY: soak-cluster
soak-cluster: $(STAMP)
	@bash tools/system-packages.sh
	$(BIN)/python -m tests.server.worker.soak --games $(or $(GAMES),1000) --workers 4

# Bounded soak of one server (docs/reliability.md): 200 matches at once of the bundled
# random bots over loopback, 400 games; lost/duplicated results and timeouts must be zero.
.PHONY: soak
soak: $(STAMP)
	$(BIN)/python -m bench.soak --at-once $(or $(AT_ONCE),200) --games $(or $(GAMES),400)
