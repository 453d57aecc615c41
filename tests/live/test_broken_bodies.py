"""A form POST with a body no parser can read gets the site's answer, not a dropped connection."""
from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.live

CSRF = "a" * 32


@pytest.mark.parametrize("body", [b"display_name=a&next=/", b"--x\r\n\xff\xfe", bytes(range(256)) * 4])
def test_a_broken_multipart_guest_form_is_answered_by_the_site(live_server_proc, body):
    """Behind a proxy the server must answer with a whole response: a worker that writes a
    bare status line and hangs up shows up as a 502 from nginx. Django reads the body: one
    it cannot read is a 400, one with no fields is a form without a name (back to the page)."""
    reply = requests.post(f"{live_server_proc.url}/guest/", data=body, allow_redirects=False, timeout=10,
                          headers={"Content-Type": "multipart/form-data; boundary=x", "X-CSRFToken": CSRF},
                          cookies={"csrftoken": CSRF})
    assert reply.status_code in {302, 400}
    assert reply.headers.get("X-Frame-Options") == "DENY"  # the site's own answer
    assert requests.get(f"{live_server_proc.url}/", timeout=10).status_code == 200


def test_a_multipart_body_with_no_usable_boundary_is_a_400(live_server_proc):
    reply = requests.post(f"{live_server_proc.url}/guest/", data=b"--x\r\n", allow_redirects=False, timeout=10,
                          headers={"Content-Type": "multipart/form-data; boundary=", "X-CSRFToken": CSRF},
                          cookies={"csrftoken": CSRF})
    assert reply.status_code == 400
