"""
plasmate_client.py - AWP v0.1 Python client (the reference client of the
AWP v0.1 specification, section 8).

Usage:
    client = PlasmateClient("ws://127.0.0.1:9222")
    await client.connect()
    session = await client.create_session()
    await client.navigate(session, "http://127.0.0.1:9280/")
    som = await client.observe(session)
    print(json.dumps(som, indent=2))

Needs the `websockets` package (Debian: python3-websockets).
"""

import asyncio
import json
import sys
import uuid

import websockets


class PlasmateError(Exception):
    """An AWP error response: code is INVALID_REQUEST, NOT_FOUND, TIMEOUT,
    NAVIGATION_FAILED or INTERNAL; details carries machine-readable context."""

    def __init__(self, code: str, message: str, details: dict = None):
        self.code = code
        self.details = details or {}
        super().__init__(f"[{code}] {message}")


class PlasmateClient:
    def __init__(self, url: str = "ws://127.0.0.1:9222", timeout: float = 30):
        self.url = url
        self.timeout = timeout
        self.ws = None
        self._pending = {}
        self._reader_task = None

    async def connect(self):
        # max_size=None: a SOM of a large page can exceed websockets' 1 MiB default.
        self.ws = await websockets.connect(self.url, max_size=None)
        self._reader_task = asyncio.create_task(self._reader())
        return await self._request("awp.hello", {
            "client_name": "plasmate-python",
            "client_version": "0.1.0",
            "awp_version": "0.1",
        })

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self._reader_task is not None:
            await self._reader_task

    async def create_session(self, **kwargs) -> str:
        result = await self._request("session.create", kwargs)
        return result["session_id"]

    async def close_session(self, session_id: str):
        return await self._request("session.close", {"session_id": session_id})

    async def navigate(self, session_id: str, url: str, timeout_ms: int = 15000):
        return await self._request("page.navigate", {
            "session_id": session_id,
            "url": url,
            "timeout_ms": timeout_ms,
        })

    async def observe(self, session_id: str) -> dict:
        result = await self._request("page.observe", {"session_id": session_id})
        return result["som"]

    async def act(self, session_id: str, action: str, target: dict, value: str = None):
        intent = {"action": action, "target": target}
        if value is not None:
            intent["value"] = value
        return await self._request("page.act", {"session_id": session_id, "intent": intent})

    async def extract(self, session_id: str, fields: dict) -> dict:
        result = await self._request("page.extract", {"session_id": session_id, "fields": fields})
        return result["data"]

    async def _request(self, method: str, params: dict) -> dict:
        msg_id = uuid.uuid4().hex[:12]
        msg = {"id": msg_id, "type": "request", "method": method, "params": params}
        future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        try:
            await self.ws.send(json.dumps(msg))
            return await asyncio.wait_for(future, timeout=self.timeout)
        finally:
            self._pending.pop(msg_id, None)

    async def _reader(self):
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg.get("type") != "response":
                    continue  # events (AWP v0.2) would be handled here
                future = self._pending.pop(msg.get("id"), None)
                if future is None or future.done():
                    continue
                if "error" in msg:
                    err = msg["error"]
                    future.set_exception(PlasmateError(err["code"], err["message"], err.get("details")))
                else:
                    future.set_result(msg.get("result", {}))
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection to plasmate closed"))


def _walk(elements):
    for e in elements:
        yield e
        yield from _walk(e.get("children", []))


async def main(server: str, url: str):
    client = PlasmateClient(server)
    hello = await client.connect()
    print(f"Connected to {hello['server_name']} {hello['server_version']} (AWP {hello['awp_version']})")
    session = await client.create_session()

    nav = await client.navigate(session, url)
    print(f"Loaded {nav['url']} ({nav['status']}, {nav['html_bytes']} bytes HTML, {nav['load_ms']} ms)")

    som = await client.observe(session)
    meta = som["meta"]
    print(f"SOM: {meta['som_bytes']} bytes, {meta['element_count']} elements, "
          f"{meta['interactive_count']} interactive")
    print(f"Byte ratio: {meta['html_bytes'] / meta['som_bytes']:.1f}x")
    for region in som["regions"]:
        print(f"  {region['id']}: {len(region['elements'])} elements")
    links = [e for r in som["regions"] for e in _walk(r["elements"]) if e["role"] == "link"]
    for link in links[:5]:
        print(f"  - {link.get('text', '')[:60]}  ->  {link['attrs'].get('href', '')}")

    try:
        await client.observe("s_nope")
    except PlasmateError as e:
        print(f"Unknown session: {e.code}")

    await client.close_session(session)
    await client.close()


if __name__ == "__main__":
    server = sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:9222"
    target = sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:9280/"
    asyncio.run(main(server, target))
