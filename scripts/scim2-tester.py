"""Runs the independent SCIM conformance suite scim2-tester against a running instance.

    python scripts/scim2-tester.py http://127.0.0.1:3000/api/scim/v2 <token>

It needs scim2-tester, scim2-client and scim2-models (python-scim on GitHub) with httpx and
pydantic 2 importable. scim2-models predates RFC 9865 and refuses the ServiceProviderConfig's
`pagination` key, so this runner removes that one key from the discovered document; every other
request and answer passes untouched. Exits 1 when any check is not a success.
"""

import json
import sys

import httpx
from scim2_client.engines.httpx import SyncSCIMClient
from scim2_tester.checker import check_server


class WithoutPagination(httpx.BaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if not request.url.path.endswith("/ServiceProviderConfig"):
            return response
        response.read()
        document = json.loads(response.content)
        document.pop("pagination", None)
        return httpx.Response(
            response.status_code,
            headers={"content-type": response.headers["content-type"]},
            content=json.dumps(document).encode(),
        )


def main() -> int:
    base_url, token = sys.argv[1], sys.argv[2]
    client = httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {token}"},
        transport=WithoutPagination(),
    )
    scim = SyncSCIMClient(client)
    scim.discover()
    results = check_server(scim)
    failed = 0
    for result in results:
        on = f" [{result.resource_type}]" if result.resource_type else ""
        print(f"{result.status.name} {result.title}{on}")
        if result.reason:
            print("  ", result.reason)
        if result.status.name not in ("SUCCESS", "SKIPPED"):
            failed += 1
    print(f"{len(results)} checks, {failed} not successful")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
