//! Just enough of the W3C WebDriver protocol to drive Debian's Chromium
//! through its ChromeDriver, spoken over `cover_play::client`: sessions,
//! navigation, elements, key presses, scripts and screenshots.
//!
//! The browser is real: nothing here stands in for it. When Chromium or
//! ChromeDriver is missing the tests skip with a message, unless
//! `COVER_REQUIRE_BROWSER` is set (`.ci/run` installs both and sets it),
//! and then they fail.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use base64::Engine as _;
use cover_play::client::request;
use serde_json::{json, Value};

/// The keys WebDriver writes as private-use characters.
pub mod key {
    pub const NULL: char = '\u{E000}';
    pub const BACKSPACE: char = '\u{E003}';
    pub const ENTER: char = '\u{E007}';
    pub const SHIFT: char = '\u{E008}';
    pub const CONTROL: char = '\u{E009}';
    pub const LEFT: char = '\u{E012}';
    pub const UP: char = '\u{E013}';
    pub const RIGHT: char = '\u{E014}';
    pub const DOWN: char = '\u{E015}';
    pub const DELETE: char = '\u{E017}';
}

/// The name WebDriver gives an element reference in JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
const TIMEOUT: Duration = Duration::from_secs(60);

fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A ChromeDriver process and one headless Chromium session in it; both
/// end on drop.
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    /// The device metrics of a phone's screen, when emulating one.
    phone: Option<Value>,
    /// Chromium's profile, a fresh directory removed on drop.
    profile: PathBuf,
}

/// An element of the page, by its WebDriver reference.
#[derive(Clone)]
pub struct Element(String);

impl Browser {
    /// Starts ChromeDriver and a Chromium window `width`×`height`, or
    /// `None` (with a message) when either program is missing and the
    /// browser is not required.
    pub fn start(width: u32, height: u32) -> Option<Browser> {
        Browser::start_with(width, height)
    }

    /// As [`Browser::start`], but the page sees a phone's screen: a
    /// viewport `width`×`height` CSS pixels at twice the density, with
    /// touch, through Chromium's device emulation (a desktop window
    /// cannot be narrower than 500 pixels).
    pub fn start_phone(width: u32, height: u32) -> Option<Browser> {
        let mut browser = Browser::start(width.max(500), height)?;
        browser.phone = Some(json!({
            "width": width, "height": height, "deviceScaleFactor": 2, "mobile": true,
        }));
        Some(browser)
    }

    /// Chromium forgets device emulation when a navigation moves the tab
    /// to another renderer, so it is set again after each one.
    fn emulate(&self) {
        if let Some(metrics) = &self.phone {
            self.cdp(
                "Emulation.setTouchEmulationEnabled",
                json!({"enabled": true}),
            );
            self.cdp("Emulation.setDeviceMetricsOverride", metrics.clone());
        }
    }

    /// One DevTools command, through ChromeDriver's `goog/cdp` extension.
    fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.session_call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({ "cmd": cmd, "params": params })),
        )
    }

    fn start_with(width: u32, height: u32) -> Option<Browser> {
        let chromium = find_program("COVER_CHROMIUM", &["chromium", "chromium-browser"]);
        let driver = find_program("COVER_CHROMEDRIVER", &["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            assert!(
                std::env::var_os("COVER_REQUIRE_BROWSER").is_none(),
                "COVER_REQUIRE_BROWSER is set but chromium or chromedriver is missing \
                 (apt-get install -y chromium chromium-driver)"
            );
            eprintln!(
                "skipped: no chromium and chromedriver (apt-get install -y chromium chromium-driver)"
            );
            return None;
        };
        Some(Browser::launch(&chromium, &driver, width, height))
    }

    fn launch(chromium: &Path, driver: &Path, width: u32, height: u32) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let profile =
            std::env::temp_dir().join(format!("cover-play-chromium-{}-{port}", std::process::id()));
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            phone: None,
            profile: profile.clone(),
        };
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let ready = request(addr, "GET", "/status", None, Duration::from_secs(2))
                .ok()
                .and_then(|a| a.json().ok())
                .is_some_and(|v| v["value"]["ready"] == true);
            if ready {
                break;
            }
            assert!(Instant::now() < deadline, "chromedriver never got ready");
            thread::sleep(Duration::from_millis(50));
        }
        // The flags keep Chromium off the network (this machine has none)
        // and out of the sandbox it cannot have as root in a container.
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    format!("--user-data-dir={}", profile.display()),
                    format!("--window-size={width},{height}"),
                ],
            },
        }}});
        let session = browser.call("POST", "/session", Some(capabilities));
        browser.session = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        browser
    }

    /// One WebDriver command; panics with the driver's message on error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let answer = request(
            self.addr,
            method,
            path,
            body.as_deref().map(str::as_bytes),
            TIMEOUT,
        )
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let json = answer.json().expect("WebDriver answers JSON");
        assert_eq!(answer.status, 200, "{method} {path}: {json}");
        json["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
        self.emulate();
    }

    pub fn refresh(&self) {
        self.session_call("POST", "/refresh", Some(json!({})));
        self.emulate();
    }

    /// Runs `script` (a function body; `arguments[i]` are `args`) in the
    /// page and returns its value.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Waits until `script` returns something truthy, and returns it.
    pub fn wait_for(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let value = self.run(script, json!([]));
            if !matches!(&value, Value::Null | Value::Bool(false))
                && value != json!(0)
                && value != json!("")
            {
                return value;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn find(&self, css: &str) -> Element {
        let found = self.session_call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        Element(
            found[ELEMENT]
                .as_str()
                .unwrap_or_else(|| panic!("no element {css}: {found}"))
                .to_owned(),
        )
    }

    pub fn click(&self, element: &Element) {
        self.session_call(
            "POST",
            &format!("/element/{}/click", element.0),
            Some(json!({})),
        );
    }

    /// Types `text` into `element` as key presses (see [`key`] for the
    /// special keys; a modifier stays down until [`key::NULL`]).
    pub fn keys(&self, element: &Element, text: &str) {
        self.session_call(
            "POST",
            &format!("/element/{}/value", element.0),
            Some(json!({ "text": text })),
        );
    }

    /// A PNG of `element` as the browser draws it, or of the whole
    /// window for `None`.
    pub fn screenshot(&self, element: Option<&Element>) -> Vec<u8> {
        let path = match element {
            Some(element) => format!("/element/{}/screenshot", element.0),
            None => "/screenshot".to_owned(),
        };
        let data = self.session_call("GET", &path, None);
        base64::engine::general_purpose::STANDARD
            .decode(data.as_str().expect("base64 text"))
            .expect("a screenshot in base64")
    }
}

impl Browser {
    /// One DevTools command through ChromeDriver, for what WebDriver has
    /// no word for (media emulation, scaled screenshots).
    pub fn devtools(&self, cmd: &str, params: Value) -> Value {
        self.cdp(cmd, params)
    }

    /// Makes the page see `prefers-color-scheme: scheme` ("light" or
    /// "dark"), as a system in that mode would report it. Set it after
    /// each navigation (as the phone's metrics are): Chromium may forget
    /// it when the tab moves to another renderer.
    pub fn color_scheme(&self, scheme: &str) {
        self.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
        );
    }

    /// Runs `script` (a function body) asynchronously: it hands its value
    /// to the callback `arguments[arguments.length - 1]`, which this
    /// returns (WebDriver's script timeout, 30 s, bounds the wait).
    pub fn run_async(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// A PNG of the viewport, its pixels `scale` times the screen's
    /// (1.0: as the screen shows it, 780 pixels wide for a phone's 390
    /// CSS pixels at 2×; 0.5 halves each side).
    pub fn screenshot_scaled(&self, scale: f64) -> Vec<u8> {
        let size = self.run(
            "return [document.documentElement.clientWidth, window.innerHeight]",
            json!([]),
        );
        let clip = json!({
            "x": 0, "y": 0, "width": size[0], "height": size[1], "scale": scale,
        });
        let shot = self.cdp(
            "Page.captureScreenshot",
            json!({"format": "png", "clip": clip}),
        );
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("base64 text"))
            .expect("a screenshot in base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = request(self.addr, "DELETE", &path, None, Duration::from_secs(10));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Keys pressed where the focus is, windows, and the page's storage:
/// what the browser tests of the keyboard alone and of two windows need.
impl Browser {
    /// Presses `text`'s keys where the focus is now (WebDriver's actions:
    /// nothing is clicked or focused first, as a keyboard-only player
    /// would); a modifier ([`key::SHIFT`], [`key::CONTROL`], [`more_keys::ALT`])
    /// stays down until [`key::NULL`] or the end.
    pub fn press(&self, text: &str) {
        let modifiers = [key::SHIFT, key::CONTROL, more_keys::ALT];
        let mut actions = Vec::new();
        let mut held: Vec<char> = Vec::new();
        for c in text.chars() {
            if modifiers.contains(&c) {
                actions.push(json!({"type": "keyDown", "value": c.to_string()}));
                held.push(c);
            } else if c == key::NULL {
                for m in held.drain(..).rev() {
                    actions.push(json!({"type": "keyUp", "value": m.to_string()}));
                }
            } else {
                actions.push(json!({"type": "keyDown", "value": c.to_string()}));
                actions.push(json!({"type": "keyUp", "value": c.to_string()}));
            }
        }
        for m in held.drain(..).rev() {
            actions.push(json!({"type": "keyUp", "value": m.to_string()}));
        }
        self.session_call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// The handle of the window the commands go to.
    pub fn window(&self) -> String {
        let handle = self.session_call("GET", "/window", None);
        handle.as_str().expect("a window handle").to_owned()
    }

    /// Opens a new tab of the same browser (same profile, so the same
    /// localStorage) and answers its handle; the commands stay with the
    /// current window until [`Browser::switch_to`].
    pub fn new_tab(&self) -> String {
        let answer = self.session_call("POST", "/window/new", Some(json!({"type": "tab"})));
        answer["handle"]
            .as_str()
            .expect("a new window's handle")
            .to_owned()
    }

    /// Sends the following commands to the window `handle`.
    pub fn switch_to(&self, handle: &str) {
        self.session_call("POST", "/window", Some(json!({ "handle": handle })));
    }

    /// Runs `script` as [`Browser::run`] does, as an async function: it
    /// may `await`, and its return value is answered.
    pub fn run_await(&self, script: &str, args: Value) -> Value {
        let wrapped = format!(
            "const done = arguments[arguments.length - 1]; \
             (async (...args) => {{ {script} }})(...Array.from(arguments).slice(0, -1)) \
             .then(done, (e) => done({{ error: String(e) }}));"
        );
        self.session_call(
            "POST",
            "/execute/async",
            Some(json!({ "script": wrapped, "args": args })),
        )
    }
}

/// Keys [`key`] lacks, as WebDriver writes them.
pub mod more_keys {
    /// WebDriver's Alt (Option) key.
    pub const ALT: char = '\u{E00A}';
    pub const TAB: char = '\u{E004}';
    pub const ESCAPE: char = '\u{E00C}';
    pub const SPACE: char = '\u{E00D}';
}
