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
    /// CPU time it had used when it began to exit (`/proc/PID/stat`, in clock ticks, read
    /// while [`run_to_exit`] held it stopped there): all it did, without the kernel's unmapping
    /// of its memory after. `None` from [`run`], which does not stop it.
    pub cpu_before_exit: Option<Duration>,
}

/// Waits for `child` (reading its pipes meanwhile) and reports how it ended.
pub fn finish(mut child: Child) -> Finished {
    let output = Output::read_from(&mut child);
    let (status, usage) = wait(child.id() as libc::pid_t);
    output.finished(status, usage, None)
}

/// Runs `cmd` to the end like [`run`], but traced, so that it stops as it begins to exit
/// (`PTRACE_EVENT_EXIT`, before the kernel tears its memory down): [`Finished::cpu_before_exit`]
/// is then read exactly. Reading it when the child's error arrived on stderr instead raced: a
/// test thread scheduled late on a loaded machine read it after part of the exit's unmapping of
/// gigabytes (0.05 s more in one CI run).
pub fn run_to_exit(cmd: &mut Command) -> Finished {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the child only makes one system call, which touches no
    // memory of ours.
    unsafe {
        cmd.pre_exec(|| {
            let traced = libc::ptrace(
                libc::PTRACE_TRACEME,
                0,
                0 as libc::c_long,
                0 as libc::c_long,
            );
            if traced == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("warren starts traced");
    let pid = child.id() as libc::pid_t;
    let output = Output::read_from(&mut child);
    let mut cpu_before_exit = None;
    let mut exec_seen = false;
    loop {
        let (status, usage) = wait(pid);
        if !libc::WIFSTOPPED(status) {
            return output.finished(status, usage, cpu_before_exit);
        }
        let signal = libc::WSTOPSIG(status);
        let passed_on = if status >> 16 == libc::PTRACE_EVENT_EXIT {
            cpu_before_exit = Some(cpu_so_far(pid));
            0
        } else if signal == libc::SIGTRAP && !exec_seen {
            exec_seen = true;
            // The stop after its exec: from here on it stops again as it begins to exit.
            // SAFETY: our own traced child, stopped.
            let set = unsafe {
                libc::ptrace(
                    libc::PTRACE_SETOPTIONS,
                    pid,
                    0 as libc::c_long,
                    libc::PTRACE_O_TRACEEXIT as libc::c_long,
                )
            };
            assert_eq!(set, 0, "PTRACE_SETOPTIONS failed");
            0
        } else {
            signal
        };
        // SAFETY: our own traced child, stopped; `passed_on` is the signal that stopped it, if
        // it is to be delivered.
        let resumed = unsafe {
            libc::ptrace(
                libc::PTRACE_CONT,
                pid,
                0 as libc::c_long,
                passed_on as libc::c_long,
            )
        };
        // A child killed meanwhile (ESRCH) is reported by the next wait.
        let killed = std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        assert!(resumed == 0 || killed, "PTRACE_CONT failed");
    }
}

/// A child's stdout and stderr, read to their ends by threads of their own meanwhile.
struct Output {
    stdout: std::thread::JoinHandle<String>,
    stderr: std::thread::JoinHandle<String>,
}

impl Output {
    /// Starts reading `child`'s piped stdout and stderr.
    fn read_from(child: &mut Child) -> Output {
        fn read_all(
            mut pipe: impl std::io::Read + Send + 'static,
        ) -> std::thread::JoinHandle<String> {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                String::from_utf8_lossy(&bytes).into_owned()
            })
        }
        Output {
            stdout: read_all(child.stdout.take().expect("stdout piped")),
            stderr: read_all(child.stderr.take().expect("stderr piped")),
        }
    }

    /// How the child ended, from `wait4`'s `status` and `usage` and all it wrote.
    fn finished(
        self,
        status: i32,
        usage: libc::rusage,
        cpu_before_exit: Option<Duration>,
    ) -> Finished {
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            128 + libc::WTERMSIG(status)
        };
        Finished {
            code,
            stdout: self.stdout.join().expect("stdout reader"),
            stderr: self.stderr.join().expect("stderr reader"),
            peak_kib: usage.ru_maxrss as u64,
            minor_faults: usage.ru_minflt as u64,
            cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            cpu_before_exit,
        }
    }
}

/// Waits for the next change of our child `pid`: its exit, or a stop while traced.
fn wait(pid: libc::pid_t) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: a plain rusage struct filled in by the kernel for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which has not been reaped yet.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    (status, usage)
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
