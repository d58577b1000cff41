//! A W3C WebDriver client, as small as the browser tests need: a session, navigation, scripts,
//! elements found by CSS (click, text, clear, keys, `<select>` options) and mouse actions, as JSON over
//! HTTP to chromedriver on loopback.
//!
//! Hand-written rather than the `fantoccini` crate: that crate brings `webdriver` and `url`, and
//! with them two generations of the ICU crates — 55 packages and an eighth of the CPU time of a
//! first `cargo test` (issue 37) — for a protocol of a dozen JSON requests on a trusted local
//! socket. The methods are `async` so the tests read as they would with any async client; each
//! request is a short blocking exchange with the local driver.

use serde_json::{json, Value};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// The key under which WebDriver names an element in JSON.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The left mouse button in pointer actions.
pub const MOUSE_BUTTON_LEFT: u64 = 0;

/// What went wrong talking to the driver: the request and what the driver (or the socket) said.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How an element is found.
pub enum Locator<'a> {
    /// By its `id` attribute.
    Id(&'a str),
    /// By a CSS selector.
    Css(&'a str),
}

impl Locator<'_> {
    /// The selector WebDriver's "css selector" strategy takes.
    fn css(&self) -> String {
        match self {
            Locator::Id(id) => format!("[id=\"{id}\"]"),
            Locator::Css(css) => (*css).to_string(),
        }
    }
}

/// One step of a mouse's pointer actions.
pub enum PointerAction {
    /// Moves to `(x, y)` in the viewport.
    MoveTo { x: f64, y: f64 },
    /// Presses `button`.
    Down { button: u64 },
    /// Releases `button`.
    Up { button: u64 },
}

/// A session with a WebDriver server.
#[derive(Clone)]
pub struct Client {
    /// `host:port` of the driver.
    address: String,
    /// `/session/ID`.
    session: String,
}

/// An element of the page, as the driver names it.
pub struct Element {
    client: Client,
    id: String,
}

impl Client {
    /// Opens a session on the driver at `http://host:port` with `capabilities` (`alwaysMatch`).
    pub async fn connect(url: &str, capabilities: Value) -> Result<Client, Error> {
        let address = url.trim_start_matches("http://").trim_end_matches('/');
        let new = json!({ "capabilities": { "alwaysMatch": capabilities } });
        let value = request(address, "POST", "/session", Some(&new))?;
        let id = value["sessionId"]
            .as_str()
            .ok_or_else(|| Error(format!("new session: no sessionId in {value}")))?;
        Ok(Client {
            address: address.to_string(),
            session: format!("/session/{id}"),
        })
    }

    /// A command of this session: `path` below `/session/ID`.
    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        let path = format!("{}{path}", self.session);
        request(&self.address, method, &path, body)
    }

    /// Loads `url` and waits for its document.
    pub async fn goto(&self, url: &str) -> Result<(), Error> {
        self.command("POST", "/url", Some(&json!({ "url": url })))
            .map(drop)
    }

    /// Runs `script` as a function body with `args`; its return value.
    pub async fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, Error> {
        let body = json!({ "script": script, "args": args });
        self.command("POST", "/execute/sync", Some(&body))
    }

    /// The first element `locator` finds.
    pub async fn find(&self, locator: Locator<'_>) -> Result<Element, Error> {
        let by = json!({ "using": "css selector", "value": locator.css() });
        let found = self.command("POST", "/element", Some(&by))?;
        self.element(&found)
    }

    /// The element a find returned.
    fn element(&self, found: &Value) -> Result<Element, Error> {
        let id = found[ELEMENT_KEY]
            .as_str()
            .ok_or_else(|| Error(format!("not an element: {found}")))?;
        Ok(Element {
            client: self.clone(),
            id: id.to_string(),
        })
    }

    /// Goes back in the session's history.
    pub async fn back(&self) -> Result<(), Error> {
        self.command("POST", "/back", Some(&json!({}))).map(drop)
    }

    /// Goes forward in the session's history.
    pub async fn forward(&self) -> Result<(), Error> {
        self.command("POST", "/forward", Some(&json!({}))).map(drop)
    }

    /// Performs `steps` with the session's mouse.
    pub async fn perform_actions(&self, steps: Vec<PointerAction>) -> Result<(), Error> {
        let actions: Vec<Value> = steps
            .iter()
            .map(|s| match *s {
                PointerAction::MoveTo { x, y } => {
                    json!({ "type": "pointerMove", "origin": "viewport", "x": x, "y": y })
                }
                PointerAction::Down { button } => {
                    json!({ "type": "pointerDown", "button": button })
                }
                PointerAction::Up { button } => json!({ "type": "pointerUp", "button": button }),
            })
            .collect();
        let body = json!({ "actions": [{
            "type": "pointer",
            "id": "mouse",
            "parameters": { "pointerType": "mouse" },
            "actions": actions,
        }] });
        // The pointer stays where the steps left it: a later press clicks there.
        self.command("POST", "/actions", Some(&body)).map(drop)
    }

    /// Ends the session (the browser closes).
    pub async fn close(self) -> Result<(), Error> {
        request(&self.address, "DELETE", &self.session, None).map(drop)
    }
}

impl Element {
    /// A command on this element: `path` below `/session/ID/element/EID`.
    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        let path = format!("/element/{}{path}", self.id);
        self.client.command(method, &path, body)
    }

    /// Clicks the element's centre.
    pub async fn click(&self) -> Result<(), Error> {
        self.command("POST", "/click", Some(&json!({}))).map(drop)
    }

    /// The element's rendered text.
    pub async fn text(&self) -> Result<String, Error> {
        let v = self.command("GET", "/text", None)?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| Error(format!("element text: {v}")))
    }

    /// Empties an editable element (an `<input>`'s value).
    pub async fn clear(&self) -> Result<(), Error> {
        self.command("POST", "/clear", Some(&json!({}))).map(drop)
    }

    /// Types `keys` into the element (WebDriver's key codes, e.g. `\u{E007}` for Enter).
    pub async fn send_keys(&self, keys: &str) -> Result<(), Error> {
        self.command("POST", "/value", Some(&json!({ "text": keys })))
            .map(drop)
    }

    /// Chooses the `<option>` of this `<select>` whose value is `value`, as a user's click does.
    pub async fn select_by_value(&self, value: &str) -> Result<(), Error> {
        let by = json!({ "using": "css selector", "value": format!("option[value=\"{value}\"]") });
        let option = self.command("POST", "/element", Some(&by))?;
        self.client.element(&option)?.click().await
    }
}

/// One request to the driver at `address`; the response's `value`, or the driver's error.
fn request(address: &str, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
    let what = |e: &dyn fmt::Display| Error(format!("{method} {path}: {e}"));
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(address).map_err(|e| what(&e))?;
    // One request a connection. chromedriver says it closes but may keep the socket open (and
    // does not answer HTTP/1.0): the body is read by its length.
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| what(&e))?;
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).map_err(|e| what(&e))?;
    let status = status_line.split(' ').nth(1).unwrap_or("?").to_string();
    let mut length = None;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).map_err(|e| what(&e))?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let length = length.ok_or_else(|| what(&format!("no Content-Length ({status_line:?})")))?;
    let mut json = vec![0; length];
    reader.read_exact(&mut json).map_err(|e| what(&e))?;
    let json = String::from_utf8_lossy(&json);
    let parsed: Value = serde_json::from_str(&json).map_err(|e| what(&format!("{e}: {json}")))?;
    let value = parsed.get("value").cloned().unwrap_or(Value::Null);
    if status != "200" {
        return Err(what(&format!(
            "{} ({status}): {}",
            value["error"].as_str().unwrap_or("error"),
            value["message"].as_str().unwrap_or(&json)
        )));
    }
    Ok(value)
}
