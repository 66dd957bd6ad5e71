"""`/docs` works without internet (issue #30): Swagger UI comes from the server itself (the
fastapi-offline wheel's files), renders the API in a real browser, and asks nothing elsewhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.web.conftest import ARTIFACTS


async def test_the_api_docs_render_from_the_server_alone(page: Any, tmp_path: Path) -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path)
    async with GauntletServer(config, http_port=0, admin_token="t") as server:
        base = f"http://127.0.0.1:{server.http_port}"
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        await page.goto(f"{base}/docs")
        title = page.locator(".swagger-ui .info .title")
        await title.wait_for(timeout=30_000)
        assert "Gauntlet" in await title.inner_text()
        # The operations are drawn from /openapi.json: the tests' routes among them.
        await page.locator(".opblock-summary-path", has_text="/api/tests/{test_id}/stop") \
            .first.wait_for(timeout=30_000)
        await page.screenshot(path=str(ARTIFACTS / "api-docs.png"))
    outside = [url for url in asked if urlsplit(url).netloc != urlsplit(base).netloc
               and not url.startswith("data:")]
    assert outside == [], outside
    assert any(url.endswith("/docs-assets/swagger-ui-bundle.js") for url in asked), asked
