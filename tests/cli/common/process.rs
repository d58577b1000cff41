//! Running the real binary as a child process and observing it from outside: its peak
//! resident memory and page faults (from `wait4`: this child's alone, whatever else the tests
//! run meanwhile), and signals sent to it while it runs.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `warren` binary as a plain `std` command, run from `dir`, output captured.
pub fn warren_in(dir: &Path) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("warren"));
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// What a finished child left: exit code (or `128 + signal`), stdout, stderr, and its peak
/// resident set size in KiB as the kernel counted it.
pub struct Finished {
    /// Exit code, or 128 + the signal that ended it.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Peak resident memory, KiB.
    pub peak_kib: u64,
    /// Minor page faults (memory the kernel handed it, zeroed, without reading a disk).
    pub minor_faults: u64,
    /// CPU time it used (user and system): unlike its wall time, not stretched by other work
    /// on the machine.
    pub cpu: Duration,
    /// CPU time it had used when its first output on stderr arrived (`/proc/PID/stat`, in
    /// clock ticks): what it spent before reporting, without the exit's unmapping of its memory
    /// after. `None` when it wrote nothing to stderr.
    pub cpu_at_stderr: Option<Duration>,
}

/// Waits for `child` (reading its pipes meanwhile) and reports how it ended.
pub fn finish(mut child: Child) -> Finished {
    use std::io::Read;
    let mut out = child.stdout.take().expect("stdout piped");
    let mut err = child.stderr.take().expect("stderr piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut first = [0u8; 4096];
    let n = err.read(&mut first).unwrap_or(0);
    // Not waited for yet, so the process (or its zombie) is still there to read.
    let cpu_at_stderr = (n > 0).then(|| cpu_so_far(pid));
    let mut rest = Vec::new();
    let _ = err.read_to_end(&mut rest);
    let stderr = String::from_utf8_lossy(&[&first[..n], &rest[..]].concat()).into_owned();
    let stdout = reader.join().expect("stdout reader");
    let mut status = 0;
    // SAFETY: a plain rusage struct filled in by the kernel for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which has not been waited for yet.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    Finished {
        code,
        stdout,
        stderr,
        peak_kib: usage.ru_maxrss as u64,
        minor_faults: usage.ru_minflt as u64,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        cpu_at_stderr,
    }
}

/// The user and system CPU time process `pid` has used so far (`/proc/PID/stat`'s `utime` and
/// `stime`, fields 14 and 15, in clock ticks).
pub fn cpu_so_far(pid: libc::pid_t) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // The command name (field 2) may hold spaces: the fields after it follow its last ')'.
    let after_name = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    Duration::from_secs_f64(ticks as f64 / per_second as f64)
}

/// A `timeval` as a duration.
fn seconds(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// Runs `cmd` to the end.
pub fn run(cmd: &mut Command) -> Finished {
    finish(cmd.spawn().expect("warren starts"))
}

/// Waits until `ready()` holds (at most 60 s) and then `delay` more, then sends `signal` to
/// `child`.
pub fn signal_when(child: &Child, signal: i32, delay: Duration, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "the child never got ready");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(delay);
    // SAFETY: sends a signal to our own child, which has not been waited for.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0, "kill failed");
}
