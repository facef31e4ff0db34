"""`rulecraft serve`: a web table (Starlette on uvicorn, the `web` extra); see docs/web.md."""
