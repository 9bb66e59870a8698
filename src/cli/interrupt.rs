//! One-shot commands stopped by SIGINT, SIGTERM or SIGHUP leave nothing behind.
//!
//! `check`, `add` (its check before saving) and `call --direct` start servers
//! in their own process groups. [`block_on`] runs such a command's work while
//! it listens for those signals; on one it ends every group the command
//! started ([`crate::mcp::groups::end_all`]) and returns [`Interrupted`],
//! whose exit code follows the shell's 128 + signal convention. It also
//! arms the watchdog ([`crate::mcp::watchdog`]), which ends those servers
//! when the command dies of a signal it cannot catch (`kill -9`).

use std::future::Future;

use nix::sys::signal::Signal;
use tokio::signal::unix::{SignalKind, signal};

use crate::error::{Diagnostic, ExitCode};
use crate::mcp::child::DEFAULT_KILL_GRACE;
use crate::mcp::groups;

/// The command was stopped by a signal after ending the servers it started.
#[derive(Debug, thiserror::Error)]
#[error("stopped by {}; every server this command started was stopped too", signal.as_str())]
pub struct Interrupted {
    /// The signal that stopped it.
    pub signal: Signal,
}

impl Diagnostic for Interrupted {
    fn exit_code(&self) -> ExitCode {
        match self.signal {
            Signal::SIGTERM => ExitCode::Terminated,
            Signal::SIGHUP => ExitCode::HungUp,
            _ => ExitCode::Interrupted,
        }
    }

    fn hint(&self) -> Option<String> {
        Some("nothing was saved or left running; run the command again to finish it".into())
    }
}

/// Run `work` on `runtime` until it finishes or a SIGINT, SIGTERM or SIGHUP
/// arrives; then end every process group started and return [`Interrupted`].
pub fn block_on<F: Future>(
    runtime: &tokio::runtime::Runtime,
    work: F,
) -> Result<F::Output, Interrupted> {
    block_on_graceful(runtime, std::time::Duration::ZERO, |_| work)
}

/// Like [`block_on`], for work that has something to say before it is
/// stopped (`call --direct` tells the server the call is cancelled): on a
/// signal, `work` is told through the watch it was built with and given
/// `grace` to end on its own; then every group is ended as in [`block_on`].
pub fn block_on_graceful<F: Future>(
    runtime: &tokio::runtime::Runtime,
    grace: std::time::Duration,
    work: impl FnOnce(tokio::sync::watch::Receiver<Option<Signal>>) -> F,
) -> Result<F::Output, Interrupted> {
    crate::mcp::watchdog::arm();
    runtime.block_on(async {
        let listen = |kind| signal(kind).ok();
        let (mut int, mut term, mut hup) = (
            listen(SignalKind::interrupt()),
            listen(SignalKind::terminate()),
            listen(SignalKind::hangup()),
        );
        let (told, stop) = tokio::sync::watch::channel(None);
        let mut work = Box::pin(work(stop));
        let caught = tokio::select! {
            biased;
            done = &mut work => return Ok(done),
            Some(()) = recv(&mut int) => Signal::SIGINT,
            Some(()) = recv(&mut term) => Signal::SIGTERM,
            Some(()) = recv(&mut hup) => Signal::SIGHUP,
        };
        // With no grace, the work stays alive but unpolled while its groups
        // are ended, and is dropped only afterwards.
        if !grace.is_zero() {
            let _ = told.send(Some(caught));
            let _ = tokio::time::timeout(grace, &mut work).await;
        }
        groups::end_all(DEFAULT_KILL_GRACE).await;
        drop(work);
        Err(Interrupted { signal: caught })
    })
}

/// The next delivery of a signal we listen for; never, if we could not listen.
async fn recv(listener: &mut Option<tokio::signal::unix::Signal>) -> Option<()> {
    match listener {
        Some(listener) => listener.recv().await,
        None => std::future::pending().await,
    }
}

/// For a blocking command whose work lives elsewhere (a call through the
/// supervisor): on SIGINT, SIGTERM or SIGHUP, say so and exit at once with
/// 128 + the signal. Exiting closes the socket, and the supervisor cancels
/// the call on the server when its caller goes away.
///
/// Before it exits, `tidy` runs (the caller clears its progress bar) and
/// the terminal is put back as it was when this was called: a prompt
/// interrupted mid-question leaves it in raw mode with the cursor hidden.
///
/// The handler only writes the signal's number to a pipe (which is
/// async-signal-safe); a thread reads it and exits. Children started later
/// get the default dispositions back at `exec`.
pub fn exit_on_signal(what: &'static str, tidy: impl FnOnce() + Send + 'static) {
    use std::io::Read;
    use std::os::fd::IntoRawFd;
    use std::sync::atomic::{AtomicI32, Ordering};

    static PIPE: AtomicI32 = AtomicI32::new(-1);
    extern "C" fn on_signal(signal: nix::libc::c_int) {
        let byte = signal as u8;
        // SAFETY: write(2) is async-signal-safe; the fd stays open for the
        // life of the process.
        unsafe {
            nix::libc::write(PIPE.load(Ordering::Relaxed), (&byte as *const u8).cast(), 1);
        }
    }
    let Ok((read, write)) = nix::unistd::pipe() else {
        return;
    };
    PIPE.store(write.into_raw_fd(), Ordering::Relaxed);
    let action = nix::sys::signal::SigAction::new(
        nix::sys::signal::SigHandler::Handler(on_signal),
        nix::sys::signal::SaFlags::SA_RESTART,
        nix::sys::signal::SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        // SAFETY: the handler only calls write(2).
        let _ = unsafe { nix::sys::signal::sigaction(signal, &action) };
    }
    let terminal = SavedTerminal::now();
    std::thread::spawn(move || {
        let mut read = std::fs::File::from(read);
        let mut byte = [0u8];
        if read.read_exact(&mut byte).is_err() {
            return;
        }
        let signal = Signal::try_from(i32::from(byte[0])).unwrap_or(Signal::SIGINT);
        let code = match signal {
            Signal::SIGTERM => ExitCode::Terminated,
            Signal::SIGHUP => ExitCode::HungUp,
            _ => ExitCode::Interrupted,
        };
        tidy();
        if let Some(terminal) = terminal {
            terminal.restore();
        }
        crate::output::error(
            &format!("stopped by {}; {what}", signal.as_str()),
            Some("run the command again to finish it"),
        );
        std::process::exit(i32::from(code.code()));
    });
}

/// The controlling terminal's modes, to put back on an exit that cuts a
/// prompt short (dialoguer reads keys in raw mode with the cursor hidden).
struct SavedTerminal {
    tty: std::fs::File,
    modes: nix::sys::termios::Termios,
}

impl SavedTerminal {
    /// The modes now; `None` without a controlling terminal.
    fn now() -> Option<SavedTerminal> {
        use std::io::IsTerminal;
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok()
            .filter(|tty| tty.is_terminal())?;
        let modes = nix::sys::termios::tcgetattr(&tty).ok()?;
        Some(SavedTerminal { tty, modes })
    }

    /// Put the modes back and show the cursor; after a prompt cut short
    /// (the modes had changed), go on from a fresh line. Only in the
    /// terminal's foreground: from the background, `tcsetattr` (and a
    /// write under `tostop`) would stop the process with SIGTTOU instead
    /// of letting it exit.
    fn restore(self) {
        use std::io::Write;
        if nix::unistd::tcgetpgrp(&self.tty).ok() != Some(nix::unistd::getpgrp()) {
            return;
        }
        let prompting = nix::sys::termios::tcgetattr(&self.tty)
            .is_ok_and(|now| now.local_flags != self.modes.local_flags);
        let _ = nix::sys::termios::tcsetattr(
            &self.tty,
            nix::sys::termios::SetArg::TCSANOW,
            &self.modes,
        );
        let mut tty = &self.tty;
        let _ = tty.write_all(if prompting {
            b"\x1b[?25h\r\n"
        } else {
            b"\x1b[?25h"
        });
        let _ = tty.flush();
    }
}
