//! `warren serve`: a designer's studio in the browser. A local web server shows the map on a
//! page (pan, zoom, layers, a legend, phase replay, a cell inspector, history, comparison,
//! downloads), runs live statistics over many seeds, and follows every save of the recipes,
//! the modules they require and the region files, as `warren watch` does.
//!
//! - [`catalog`]: the recipes one server offers (every recipe beside the start one);
//! - [`worker`]: the one thread that owns the Lua hosts, follows the files and generates;
//! - [`sweep`]: statistics over many seeds, with the batch engine, in the background;
//! - [`routes`]: the HTTP routes (axum), the page's assets embedded in the binary;
//! - [`query`]: requests read and checked; [`payload`]: maps encoded for the page;
//! - [`status`]: what pages are told after each reload (server-sent events).

pub mod catalog;
pub mod payload;
pub mod query;
pub mod routes;
pub mod status;
pub mod sweep;
pub mod worker;

use std::future::IntoFuture;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use warren_lua::error::{Error, Result};

/// Where to listen and what to serve.
pub struct Options {
    /// The worker's inputs.
    pub setup: worker::Setup,
    /// The seed and levels a request without them gets.
    pub defaults: query::Defaults,
    /// The address to listen on.
    pub bind: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// Open the page in the default browser.
    pub open: bool,
}

/// Serves until SIGINT (Ctrl-C) or SIGTERM, then stops cleanly. Prints the page's URL on
/// stdout once it answers.
pub fn serve(options: Options) -> Result<()> {
    let addr = SocketAddr::new(options.bind, options.port);
    let listener = TcpListener::bind(addr).map_err(|e| bind_error(addr, e))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::Io(format!("{addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| Error::Io(format!("{addr}: {e}")))?;
    let loopback = options.bind.is_loopback();
    if !loopback {
        eprintln!(
            "warning: serving on {local}: anyone who can reach this machine there can use the page and read the maps of your recipe and region files (the default, 127.0.0.1, serves this machine only)"
        );
    }
    let script = options.setup.catalog.start().to_string();
    let catalog = options.setup.catalog.clone();
    let worker = worker::Worker::start(options.setup)?;
    let app = routes::App {
        worker,
        catalog,
        sweeps: Default::default(),
        defaults: options.defaults,
        loopback,
    };
    let url = page_url(local);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .thread_name("warren-serve")
        .build()
        .map_err(|e| Error::Io(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| Error::Io(format!("{local}: {e}")))?;
        println!("{url}");
        eprintln!("warren serve: {script} at {url} (Ctrl-C to stop)");
        if options.open {
            open_browser(&url);
        }
        let stop = stop_requested()?;
        let mut server = tokio::spawn(
            axum::serve(listener, routes::router(app))
                .with_graceful_shutdown(raised(stop.clone()))
                .into_future(),
        );
        while !stop.load(Ordering::Relaxed) && !server.is_finished() {
            tokio::time::sleep(STOP_POLL).await;
        }
        // Requests in progress finish; event streams, which never do, end with the process.
        match tokio::time::timeout(STOP_GRACE, &mut server).await {
            Ok(Ok(served)) => {
                served.map_err(|e| Error::Io(format!("{local}: the server stopped: {e}")))?
            }
            Ok(Err(e)) => return Err(Error::Internal(format!("the server failed: {e}"))),
            Err(_) => {}
        }
        eprintln!("warren serve: stopped");
        Ok(())
    })
}

/// How often the server looks whether it was asked to stop.
const STOP_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// How long requests in progress may take to finish once the server is asked to stop.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// A flag raised by SIGINT (Ctrl-C) or SIGTERM: the server then stops taking connections,
/// lets the requests in progress finish, and returns. A second signal ends the process at once.
fn stop_requested() -> Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let raised = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, raised.clone())
            .and_then(|_| signal_hook::flag::register(signal, raised.clone()))
            .map_err(|e| Error::Internal(format!("catching signal {signal}: {e}")))?;
    }
    Ok(raised)
}

/// Resolves once `flag` is raised.
async fn raised(flag: Arc<AtomicBool>) {
    while !flag.load(Ordering::Relaxed) {
        tokio::time::sleep(STOP_POLL).await;
    }
}

/// The page's address: loopback when listening on every interface.
pub fn page_url(local: SocketAddr) -> String {
    let ip = match local.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, local.port()))
}

fn bind_error(addr: SocketAddr, e: std::io::Error) -> Error {
    let why = match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "port {} is in use (another warren serve?); choose another with --port P, or --port 0 for any free one",
            addr.port()
        ),
        std::io::ErrorKind::AddrNotAvailable => {
            "that address is not one of this machine's; check --bind".to_string()
        }
        std::io::ErrorKind::PermissionDenied => {
            "permission denied (ports below 1024 need privileges); choose another with --port P"
                .to_string()
        }
        _ => e.to_string(),
    };
    Error::Io(format!("cannot listen on {addr}: {why}"))
}

/// Asks the desktop to open `url`; a failure is a warning (the URL is printed anyway).
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let spawned = command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match spawned {
        // Reap the opener when it exits.
        Ok(mut child) => drop(std::thread::spawn(move || child.wait())),
        Err(e) => eprintln!("warning: --open: cannot start a browser ({e}); open {url} yourself"),
    }
}
