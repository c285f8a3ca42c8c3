"""The page's HTTP side: a Starlette app with one page and a few JSON calls, all behind the sitting's token.

Each call takes the orders as the page holds them and answers from the game
layer; no call reads anything but the sitting.  A wrong token is a plain 404,
a host other than the loopback address is refused (DNS rebinding), and a
call that is not JSON is refused, so no other page or user can drive it.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from pbem.errors import PbemError
from pbem.web.session import NeedsConsent, Sitting


def _json(payload: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(payload, status_code=status, headers={"Cache-Control": "no-store"})


def build_app(sitting: Sitting, token: str, hosts: tuple[str, ...] = ("127.0.0.1", "localhost")) -> Starlette:
    """The app serving ``sitting`` under ``/{token}/``, answering only requests addressed to ``hosts``."""
    from pbem.web.page import page_html

    page_cache: dict[str, str] = {}

    def allowed(request: Request) -> bool:
        return secrets.compare_digest(request.path_params.get("token", ""), token)

    async def body(request: Request) -> dict[str, Any] | None:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return None
        try:
            data = await request.json()
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def document_of(data: dict[str, Any]) -> dict[str, Any]:
        document = data.get("document")
        return document if isinstance(document, dict) else sitting.document

    async def page(request: Request) -> Response:
        if not allowed(request):
            return Response("not found", status_code=404)
        if "page" not in page_cache:
            page_cache["page"] = page_html(sitting)
        return HTMLResponse(page_cache["page"], headers={"Cache-Control": "no-store"})

    def call(handler):
        async def endpoint(request: Request) -> Response:
            if not allowed(request):
                return Response("not found", status_code=404)
            data = await body(request) if request.method == "POST" else {}
            if data is None:
                return _json({"error": "send a JSON object (Content-Type: application/json)"}, 415)
            try:
                return _json(handler(data))
            except NeedsConsent as ask:
                return _json({"ask": ask.question}, 409)
            except PbemError as exc:
                return _json({"error": exc.render()}, 422)
        return endpoint

    planner = sitting.planner

    def analysed(document: dict[str, Any]) -> dict[str, Any]:
        sitting.document = document
        return {"document": document, "analysis": planner.analyse(document).as_dict()}

    def state(_data):
        return analysed(sitting.document) | {"orders_path": str(sitting.orders_path)}

    def check(data):
        return analysed(document_of(data))

    def reach(data):
        return planner.reach_table(document_of(data), str(data.get("unit", "")))

    def path(data):
        move = planner.cheapest_move(document_of(data), str(data.get("unit", "")), str(data.get("to", "")), bool(data.get("exit")))
        if move is None:
            return {"move": None, "error": f"{data.get('to')} is out of reach of {data.get('unit')} this phase"}
        return {"move": move}

    def save(data):
        written = sitting.save(document_of(data), overwrite=bool(data.get("overwrite")))
        return {"path": str(written)}

    def load(_data):
        if not sitting.orders_path.exists():
            return {"error": f"{sitting.orders_path} does not exist yet: save first", "document": sitting.document}
        return analysed(sitting.load())

    def submit(data):
        return sitting.submit(document_of(data), replace=bool(data.get("replace")))

    async def no_icon(_request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/favicon.ico", no_icon),
        Route("/{token}/", page),
        Route("/{token}/api/state", call(state), methods=["GET"]),
        Route("/{token}/api/check", call(check), methods=["POST"]),
        Route("/{token}/api/reach", call(reach), methods=["POST"]),
        Route("/{token}/api/path", call(path), methods=["POST"]),
        Route("/{token}/api/save", call(save), methods=["POST"]),
        Route("/{token}/api/load", call(load), methods=["POST"]),
        Route("/{token}/api/submit", call(submit), methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))])
