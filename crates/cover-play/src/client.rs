//! A minimal blocking HTTP/1.1 client for loopback: what the tests, the
//! load benchmark and the browser tests (which talk to ChromeDriver) need,
//! and no more. One request per connection (`Connection: close`); answers
//! with `Content-Length`, chunked or read to the end. [`exchange`] and
//! [`read_answer`] send and read raw bytes, for the tests of what a
//! hostile client sends.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// An answer: the status code and the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status code, e.g. 200.
    pub status: u16,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// Every header, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Answer {
    /// The first header named `name` (in lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> io::Result<serde_json::Value> {
        serde_json::from_slice(&self.body).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "status {}: body is not JSON ({e}): {}",
                    self.status,
                    String::from_utf8_lossy(&self.body[..self.body.len().min(200)])
                ),
            )
        })
    }
}

/// Sends `method path` to `addr` with `body` as JSON (when given) and
/// reads the answer; gives up after `timeout` without progress.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    timeout: Duration,
) -> io::Result<Answer> {
    let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    stream.set_nodelay(true)?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(body) = body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    let mut message = head.into_bytes();
    message.extend_from_slice(body.unwrap_or_default());
    // A server may answer and close before taking the whole body (413 for
    // a body too large): then the answer, not the write error, is news.
    let written = stream.write_all(&message);
    match read_answer(BufReader::new(stream)) {
        Err(read_error) => Err(written.err().unwrap_or(read_error)),
        answer => answer,
    }
}

/// Sends `message` as it is (a request, whole or not, or anything else)
/// to `addr` and reads the answer; gives up after `timeout` without
/// progress.
pub fn exchange(addr: SocketAddr, message: &[u8], timeout: Duration) -> io::Result<Answer> {
    let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let written = stream.write_all(message);
    match read_answer(BufReader::new(stream)) {
        Err(read_error) => Err(written.err().unwrap_or(read_error)),
        answer => answer,
    }
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// Reads one answer (status line, headers, body) from `reader`.
pub fn read_answer(mut reader: impl BufRead) -> io::Result<Answer> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| bad(format!("not an HTTP status line: {line:?}")))?;
    let (mut length, mut chunked, mut content_type) = (None, false, None);
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(bad("the headers do not end"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(bad(format!("not a header: {header:?}")));
        };
        let value = value.trim();
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "content-length" => {
                length = Some(value.parse().map_err(|_| bad("bad Content-Length"))?)
            }
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "content-type" => content_type = Some(value.to_owned()),
            _ => {}
        }
        headers.push((name, value.to_owned()));
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| bad(format!("bad chunk size {line:?}")))?;
            if size == 0 {
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..])?;
            line.clear();
            reader.read_line(&mut line)?;
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    } else {
        reader.read_to_end(&mut body)?;
    }
    Ok(Answer {
        status,
        content_type,
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_length_chunked_and_unbounded_bodies() {
        let length =
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhelloEXTRA";
        let answer = read_answer(&length[..]).unwrap();
        assert_eq!((answer.status, &answer.body[..]), (200, &b"hello"[..]));
        assert_eq!(answer.content_type.as_deref(), Some("text/plain"));
        assert_eq!(answer.header("content-length"), Some("5"));
        assert_eq!(answer.header("x-absent"), None);
        let chunked = b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
        let answer = read_answer(&chunked[..]).unwrap();
        assert_eq!((answer.status, &answer.body[..]), (404, &b"abcde"[..]));
        let unbounded = b"HTTP/1.0 200 OK\r\n\r\nto the end";
        assert_eq!(read_answer(&unbounded[..]).unwrap().body, b"to the end");
    }

    #[test]
    fn rejects_what_is_not_http() {
        assert!(read_answer(&b"SSH-2.0-OpenSSH\r\n"[..]).is_err());
        assert!(read_answer(&b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n"[..]).is_err());
        assert!(read_answer(&b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n"[..]).is_err());
        assert!(read_answer(&b"HTTP/1.1 200 OK\r\n"[..]).is_err());
    }
}
