//! A running `warren serve` (the real binary) over a private tree, and a small HTTP/1.0 client
//! for it: one request per connection, the answer read to its end, server-sent events read
//! line by line on a thread.

use crate::common::{copy_regions, temp_tree};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous, since the machine running the tests may be busy: a hang guard, not a speed test
/// (at load 10, a page's map that waits for a sweep's turns took over a minute).
pub const PATIENCE: Duration = Duration::from_secs(180);

/// A `warren serve` process; killed when dropped.
pub struct Served {
    child: Child,
    /// The page's address, as printed (`http://127.0.0.1:PORT/`).
    pub url: String,
    /// Where it listens.
    pub addr: SocketAddr,
    lines: Arc<Mutex<Vec<String>>>,
    /// The tree it serves from (its working directory).
    pub dir: tempfile::TempDir,
}

impl Served {
    /// Writes `files` and the shipped regions into a fresh tree and serves from it with
    /// `warren serve ARGS --port 0`.
    pub fn start(files: &[(&str, &str)], args: &[&str]) -> Served {
        let dir = temp_tree(files);
        copy_regions(dir.path());
        Served::start_in(dir, args)
    }

    /// Serves from `dir` with `warren serve ARGS --port 0`.
    pub fn start_in(dir: tempfile::TempDir, args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warren"))
            .current_dir(dir.path())
            .arg("serve")
            .args(args)
            .args(["--port", "0"])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("warren starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let (tx, rx) = channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            for _ in lines {}
        });
        let Ok(url) = rx.recv_timeout(PATIENCE) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "warren serve printed no URL; stderr:\n{}",
                lines.lock().unwrap().join("\n")
            );
        };
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|_| panic!("not a URL: {url}"));
        Served {
            child,
            url,
            addr,
            lines,
            dir,
        }
    }

    /// A path inside the served tree.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Everything printed on stderr so far.
    pub fn stderr(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    /// `GET target` (path and query).
    pub fn get(&self, target: &str) -> Reply {
        request(self.addr, "GET", target, &self.addr.to_string())
    }

    /// The status events the server pushes for the start recipe, from now on.
    pub fn events(&self) -> Events {
        Events::open(self.addr, "/api/events")
    }

    /// The server-sent events of `target` (`/api/events?recipe=…`, `/api/sweep?…`).
    pub fn events_at(&self, target: &str) -> Events {
        Events::open(self.addr, target)
    }

    /// The server's peak resident memory so far, in KiB: the kernel's high-water mark
    /// (`VmHWM` in `/proc/PID/status`, Linux), as `WARREN_PEAK_MEMORY` reports it at exit.
    pub fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no VmHWM in:\n{status}"))
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `signal` and waits (at most [`PATIENCE`]) for the process to end: its exit code,
    /// or 128 + the signal that ended it.
    pub fn stop(&mut self, signal: i32) -> i32 {
        use std::os::unix::process::ExitStatusExt;
        // SAFETY: sends a signal to our own child, which has not been waited for.
        let sent = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(sent, 0, "kill failed");
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status
                    .code()
                    .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
            }
            assert!(Instant::now() < deadline, "warren serve did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// Header names (lower-case) and values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}), status {}: {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The messages of an error answer, joined by newlines.
    pub fn problems(&self) -> String {
        let v = self.json();
        v["error"]["problems"]
            .as_array()
            .unwrap_or_else(|| panic!("not an error answer: {v}"))
            .iter()
            .map(|p| p["message"].as_str().unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// One HTTP/1.0 request (the server closes the connection after the answer).
pub fn request(addr: SocketAddr, method: &str, target: &str, host: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("the server accepts connections");
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(stream, "{method} {target} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("an answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

/// Server-sent events, their data parsed as JSON as they arrive.
pub struct Events {
    rx: Receiver<(Instant, serde_json::Value)>,
    /// The body of an answer that is not an event stream.
    pub refusal: Option<String>,
}

impl Events {
    fn open(addr: SocketAddr, target: &str) -> Events {
        let mut stream = TcpStream::connect(addr).expect("the server accepts connections");
        write!(stream, "GET {target} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        let status_line = status_line.trim().to_string();
        let mut refusal = None;
        if !status_line.contains(" 200 ") {
            let mut rest = String::new();
            let _ = reader.read_to_string(&mut rest);
            refusal = Some(rest.split("\r\n\r\n").nth(1).unwrap_or("").to_string());
        }
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                if let Some(data) = line.strip_prefix("data:") {
                    let value = serde_json::from_str(data.trim()).expect("JSON event data");
                    if tx.send((Instant::now(), value)).is_err() {
                        return;
                    }
                }
            }
        });
        Events { rx, refusal }
    }

    /// The next event that satisfies `want`, and when it arrived; panics after `PATIENCE`.
    pub fn wait_for(
        &self,
        what: &str,
        want: impl Fn(&serde_json::Value) -> bool,
    ) -> (Instant, serde_json::Value) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok((at, v)) if want(&v) => return (at, v),
                Ok(_) => {}
                Err(_) => panic!("no event with {what} within {PATIENCE:?}"),
            }
        }
    }
}

/// Writes a file the way editors with atomic saves do: a temporary beside it, then a rename.
pub fn atomic_write(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}
