//! The browser table (docs/protocol.md, "A table in the browser"): a page of plain HTML, CSS
//! and JavaScript, built into the binary, that `riffle serve --listen` serves at `GET /`; it
//! plays over the WebSocket at the same address.

use axum::http::header;
use axum::response::IntoResponse;

const PAGE: &str = include_str!("../../../web/table.html");
const SCRIPT: &str = include_str!("../../../web/table.js");
const STYLE: &str = include_str!("../../../web/table.css");

/// The page's own files only; it talks to this host alone.
const POLICY: &str = "default-src 'self'; connect-src 'self'; frame-ancestors 'none'";

fn file(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /` without a WebSocket upgrade.
pub(super) fn page() -> axum::response::Response {
    file("text/html; charset=utf-8", PAGE).into_response()
}

/// `GET /table.js`.
pub(super) async fn script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /table.css`.
pub(super) async fn style() -> impl IntoResponse {
    file("text/css; charset=utf-8", STYLE)
}
