//! `warren::serve` (src/serve/): the page's address.

/// `catalog.rs`: the recipes offered beside the start one.
mod catalog;
/// `payload.rs`: cells packed for the page.
mod payload;
/// `query.rs`: the requests' query strings, read or refused.
mod query;
/// `routes.rs`: the `Host` check.
mod routes;
/// `status.rs`: problems located by file, line and column.
mod status;

use warren::serve::page_url;

#[test]
fn the_url_names_loopback_for_every_interface() {
    let url = |s: &str| page_url(s.parse().unwrap());
    assert_eq!(url("127.0.0.1:80"), "http://127.0.0.1:80/");
    assert_eq!(url("0.0.0.0:7"), "http://127.0.0.1:7/");
    assert_eq!(url("[::]:7"), "http://[::1]:7/");
    assert_eq!(url("192.168.1.4:9"), "http://192.168.1.4:9/");
}
