//! The framing: a u32 big-endian byte length, then that many bytes of
//! UTF-8 JSON, capped at [`MAX_FRAME`]; blocking for the CLI, async for
//! the daemon.

use std::io::{Read, Write};

use serde::Serialize;

/// The largest frame either side accepts (a tool catalog or call result
/// fits easily; a garbage length prefix is refused before allocating).
pub const MAX_FRAME: usize = 16 * 1024 * 1024;

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The peer closed the connection between frames.
    #[error("connection closed")]
    Closed,
    /// The length prefix is over [`MAX_FRAME`].
    #[error("frame of {0} bytes is over the {MAX_FRAME}-byte cap")]
    TooLarge(usize),
    /// The bytes are not the expected JSON.
    #[error("malformed frame: {0}")]
    Malformed(#[from] serde_json::Error),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Encode `value` as one frame.
pub fn encode(value: &impl Serialize) -> Result<Vec<u8>, FrameError> {
    let mut buf = vec![0u8; 4];
    serde_json::to_writer(&mut buf, value)?;
    let len = buf.len() - 4;
    if len > MAX_FRAME {
        return Err(FrameError::TooLarge(len));
    }
    buf[..4].copy_from_slice(&(len as u32).to_be_bytes());
    Ok(buf)
}

/// Check a length prefix against the cap.
pub fn frame_len(prefix: [u8; 4]) -> Result<usize, FrameError> {
    let len = u32::from_be_bytes(prefix) as usize;
    if len > MAX_FRAME {
        Err(FrameError::TooLarge(len))
    } else {
        Ok(len)
    }
}

/// A failed read of a length prefix: the end of the stream there is the
/// peer closing between frames.
fn between_frames(e: std::io::Error) -> FrameError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        FrameError::Closed
    } else {
        FrameError::Io(e)
    }
}

/// Read one frame (blocking; the CLI side).
pub fn read_blocking<T: serde::de::DeserializeOwned>(r: &mut impl Read) -> Result<T, FrameError> {
    let mut prefix = [0u8; 4];
    r.read_exact(&mut prefix).map_err(between_frames)?;
    let len = frame_len(prefix)?;
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(serde_json::from_slice(&buf)?)
}

/// Write one frame (blocking; the CLI side).
pub fn write_blocking(w: &mut impl Write, value: &impl Serialize) -> Result<(), FrameError> {
    w.write_all(&encode(value)?)?;
    w.flush()?;
    Ok(())
}

/// Read one frame's bytes (async; the daemon side). JSON decoding is left
/// to the caller so a malformed frame can still be answered.
pub async fn read_async(
    r: &mut (impl tokio::io::AsyncRead + Unpin),
) -> Result<Vec<u8>, FrameError> {
    use tokio::io::AsyncReadExt;
    let mut prefix = [0u8; 4];
    r.read_exact(&mut prefix).await.map_err(between_frames)?;
    let len = frame_len(prefix)?;
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf).await?;
    Ok(buf)
}

/// Write one frame (async; the daemon side).
pub async fn write_async(
    w: &mut (impl tokio::io::AsyncWrite + Unpin),
    value: &impl Serialize,
) -> Result<(), FrameError> {
    use tokio::io::AsyncWriteExt;
    w.write_all(&encode(value)?).await?;
    w.flush().await?;
    Ok(())
}
