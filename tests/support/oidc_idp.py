"""A small OpenID Connect provider for tests: discovery, authorize (auto-consent for a
configured user), token with PKCE S256 verification, JWKS and userinfo, on a real port."""

from __future__ import annotations

import base64
import hashlib
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode

import uvicorn
from authlib.jose import JsonWebKey, jwt
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.support.serve import free_port


@dataclass
class FakeIdP:
    client_id: str = "gshare"
    client_secret: str = "s3cret"
    claims: dict[str, Any] = field(
        default_factory=lambda: {
            "sub": "u-123",
            "preferred_username": "ada",
            "email": "ada@uni.example",
            "name": "Ada L.",
        }
    )
    port: int = field(default_factory=free_port)
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    seen_challenge_methods: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.key = JsonWebKey.generate_key("RSA", 2048, is_private=True)
        self.key_id = "k1"

    @property
    def issuer(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def app(self) -> Starlette:
        async def discovery(_: Request) -> Response:
            i = self.issuer
            return JSONResponse(
                {
                    "issuer": i,
                    "authorization_endpoint": f"{i}/authorize",
                    "token_endpoint": f"{i}/token",
                    "jwks_uri": f"{i}/jwks",
                    "userinfo_endpoint": f"{i}/userinfo",
                    "response_types_supported": ["code"],
                    "subject_types_supported": ["public"],
                    "id_token_signing_alg_values_supported": ["RS256"],
                    "code_challenge_methods_supported": ["S256"],
                }
            )

        async def authorize(request: Request) -> Response:
            q = request.query_params
            if q.get("client_id") != self.client_id:
                return JSONResponse({"error": "unauthorized_client"}, status_code=400)
            self.seen_challenge_methods.append(q.get("code_challenge_method", ""))
            code = secrets.token_urlsafe(16)
            self.codes[code] = {
                "challenge": q.get("code_challenge"),
                "nonce": q.get("nonce"),
                "redirect_uri": q["redirect_uri"],
            }
            return RedirectResponse(
                q["redirect_uri"] + "?" + urlencode({"code": code, "state": q["state"]}), status_code=302
            )

        async def token(request: Request) -> Response:
            form = {k: v[0] for k, v in parse_qs((await request.body()).decode()).items()}
            grant = self.codes.pop(str(form.get("code")), None)
            if grant is None:
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
            verifier = str(form.get("code_verifier", ""))
            expected = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            if grant["challenge"] != expected:
                return JSONResponse({"error": "invalid_grant", "error_description": "PKCE"}, status_code=400)
            now = int(time.time())
            claims = {
                **self.claims,
                "iss": self.issuer,
                "aud": self.client_id,
                "iat": now,
                "exp": now + 300,
                "nonce": grant["nonce"],
            }
            id_token = jwt.encode({"alg": "RS256", "kid": self.key_id}, claims, self.key).decode()
            return JSONResponse(
                {
                    "access_token": "at-" + secrets.token_hex(8),
                    "token_type": "Bearer",
                    "expires_in": 300,
                    "id_token": id_token,
                }
            )

        async def jwks(_: Request) -> Response:
            public = self.key.as_dict(is_private=False)
            public.update({"kid": self.key_id, "use": "sig", "alg": "RS256"})
            return JSONResponse({"keys": [public]})

        async def userinfo(_: Request) -> Response:
            return JSONResponse(self.claims)

        return Starlette(
            routes=[
                Route("/.well-known/openid-configuration", discovery),
                Route("/authorize", authorize),
                Route("/token", token, methods=["POST"]),
                Route("/jwks", jwks),
                Route("/userinfo", userinfo),
            ]
        )

    def start(self) -> None:
        config = uvicorn.Config(self.app(), host="127.0.0.1", port=self.port, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("fake IdP did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)
