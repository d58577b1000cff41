//! `warren::serve::routes` (src/serve/routes.rs): only loopback hosts are served.

use warren::serve::routes::is_loopback_host;

#[test]
fn only_loopback_names_pass_the_host_check() {
    for ok in [
        "127.0.0.1:8080",
        "localhost",
        "LOCALHOST:1",
        "[::1]:9",
        "127.1.2.3",
        "app.localhost:3",
    ] {
        assert!(is_loopback_host(ok), "{ok}");
    }
    for no in [
        "evil.example:8080",
        "10.0.0.1",
        "[::2]:1",
        "localhost.evil.com",
    ] {
        assert!(!is_loopback_host(no), "{no}");
    }
}
