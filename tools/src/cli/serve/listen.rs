//! `riffle serve --listen ADDR`: the host protocol over WebSocket (docs/protocol.md). The
//! sockets run on a one-thread tokio runtime; the games on `--threads` plain threads, each
//! with its own `Session` (a game is not `Send`), game ids striding so that a game's id
//! names its thread. A thread never waits on a client: each connection has a bounded
//! outgoing queue, and one found full is dropped (its client stopped reading).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use riffle_host::{ConnId, ErrorCode, GameId, Library, Line, ServerMessage, Session};
use tokio::sync::{Notify, mpsc};
use tokio::time::{Duration, Instant};

use super::{Args, Recorder};

/// Messages waiting to be sent to one connection: a thread that finds the queue full
/// drops the connection (its client stopped reading).
const OUTGOING: usize = 1024;
/// Messages waiting for one session thread; a connection waits while it is full.
const INCOMING: usize = 1024;

/// What a session thread is told.
enum Job {
    /// A text message from a connection.
    Text(ConnId, String),
    /// The connection is gone.
    Disconnect(ConnId),
}

/// A connection's outgoing queue, and the signal that drops it.
struct Outbox {
    queue: mpsc::Sender<String>,
    drop: Arc<Notify>,
}

/// Each open connection's outgoing queue: what the session threads hold.
#[derive(Default)]
struct Outboxes(Mutex<HashMap<ConnId, Outbox>>);

/// What every connection shares (the session threads end when it is gone: it holds
/// their queues).
struct Shared {
    /// Each session thread's queue.
    threads: Vec<mpsc::Sender<Job>>,
    conns: Arc<Outboxes>,
    next_conn: AtomicU64,
    /// The thread the next `create` goes to.
    next_create: AtomicUsize,
    open: AtomicUsize,
    max_connections: usize,
    max_message_bytes: usize,
    /// A connection with no message either way for this long is closed.
    idle: Duration,
    /// What connections' last activity is counted from.
    epoch: Instant,
}

impl Outboxes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ConnId, Outbox>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `text` for `conn`, never waiting: drops the connection when its queue is
    /// full (its client stopped reading).
    fn deliver(&self, conn: ConnId, text: String) {
        let mut conns = self.lock();
        let Some(outbox) = conns.get(&conn) else {
            return;
        };
        match outbox.queue.try_send(text) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                eprintln!(
                    "riffle serve: connection {conn} stopped reading ({OUTGOING} messages \
                     waiting): dropped"
                );
                outbox.drop.notify_one();
                conns.remove(&conn);
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                conns.remove(&conn);
            }
        }
    }
}

impl Shared {
    /// The session thread for a message: the game's owner for one naming a game, the
    /// next in turn for `create`, any for the rest.
    fn route(&self, conn: ConnId, text: &str) -> usize {
        #[derive(serde::Deserialize)]
        struct Routing {
            #[serde(rename = "type")]
            kind: Option<String>,
            game_id: Option<GameId>,
        }
        let n = self.threads.len();
        match serde_json::from_str::<Routing>(text) {
            Ok(Routing {
                game_id: Some(id), ..
            }) if id >= 1 => ((id - 1) % n as u64) as usize,
            Ok(Routing {
                kind: Some(kind), ..
            }) if kind == "create" => self.next_create.fetch_add(1, Ordering::Relaxed) % n,
            _ => (conn % n as u64) as usize,
        }
    }
}

/// Serves WebSocket clients at `addr` until SIGINT, SIGTERM or the end of standard input.
pub(super) fn run(
    addr: SocketAddr,
    args: &Args,
    paths: Vec<PathBuf>,
    games: Vec<String>,
) -> anyhow::Result<ExitCode> {
    let n = usize::from(args.threads);
    let mut queues = Vec::new();
    let mut receivers = Vec::new();
    for _ in 0..n {
        let (tx, rx) = mpsc::channel(INCOMING);
        queues.push(tx);
        receivers.push(rx);
    }
    let shared = Arc::new(Shared {
        threads: queues,
        conns: Arc::default(),
        next_conn: AtomicU64::new(1),
        next_create: AtomicUsize::new(0),
        open: AtomicUsize::new(0),
        max_connections: args.max_connections,
        max_message_bytes: riffle_host::MAX_MESSAGE_BYTES,
        idle: Duration::from_secs(args.idle_timeout),
        epoch: Instant::now(),
    });
    let limits = args.limits();
    // Each thread loads its own library (a Session is not Send) and says when it is ready.
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let mut handles = Vec::new();
    for (i, rx) in receivers.into_iter().enumerate() {
        let (paths, games, ready) = (paths.clone(), games.clone(), ready_tx.clone());
        let outboxes = Arc::clone(&shared.conns);
        let record = args.record.clone();
        let handle = std::thread::Builder::new()
            .name(format!("session-{i}"))
            .spawn(move || {
                let library = match Library::load(&paths, &games) {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                let session =
                    Session::with_limits(library, limits).with_game_ids(i as u64 + 1, n as u64);
                let _ = ready.send(Ok(()));
                drop(ready);
                session_thread(session, rx, &outboxes, record);
            })
            .context("starting a session thread")?;
        handles.push(handle);
    }
    drop(ready_tx);
    for _ in 0..n {
        ready_rx
            .recv()
            .context("a session thread stopped")?
            .map_err(anyhow::Error::msg)?;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the socket runtime")?;
    let served = runtime.block_on(serve(addr, Arc::clone(&shared)));
    // Connections still open end with the runtime; then the threads' queues close.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    drop(shared);
    for h in handles {
        let _ = h.join();
    }
    served?;
    Ok(ExitCode::SUCCESS)
}

/// One session thread: its messages in order, their answers to their connections' queues.
fn session_thread(
    mut session: Session,
    mut rx: mpsc::Receiver<Job>,
    outboxes: &Outboxes,
    record: Option<PathBuf>,
) {
    let mut recorder = Recorder {
        dir: record,
        written: std::collections::BTreeSet::new(),
    };
    while let Some(job) = rx.blocking_recv() {
        match job {
            Job::Text(conn, text) => {
                let sent = session.handle_read(conn, Line::Text(text));
                for (to, msg) in &sent {
                    match serde_json::to_string(msg) {
                        Ok(text) => outboxes.deliver(*to, text),
                        Err(e) => eprintln!("riffle serve: a message not written: {e}"),
                    }
                }
                if let Err(e) = recorder.after(&session, &sent) {
                    eprintln!("riffle serve: {e:#}");
                }
            }
            Job::Disconnect(conn) => session.disconnect(conn),
        }
    }
}

async fn serve(addr: SocketAddr, shared: Arc<Shared>) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("--listen {addr}"))?;
    let local = listener.local_addr()?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {local}")?;
        out.flush()?;
    }
    let app = axum::Router::new()
        .route("/", axum::routing::any(upgrade))
        .route("/table.js", axum::routing::get(super::web::script))
        .route("/table.css", axum::routing::get(super::web::style))
        .with_state(shared);
    axum::serve(listener, app)
        .with_graceful_shutdown(stopped())
        .await
        .context("serving")?;
    Ok(())
}

/// Resolves on SIGINT, SIGTERM or the end of standard input.
async fn stopped() {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    // A plain thread reads standard input to its end (tokio's stdin would hold the
    // runtime open at shutdown).
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
            let _ = tx.send(());
        });
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
        _ = rx => {}
    }
}

/// A connection's place under `--max-connections`, given back when it ends.
struct Slot(Arc<Shared>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `/`: the WebSocket; a plain `GET` is the browser table's page.
async fn upgrade(
    method: axum::http::Method,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(_) if method == axum::http::Method::GET => return super::web::page(),
        Err(rejection) => return rejection.into_response(),
    };
    let max = shared.max_connections;
    if shared
        .open
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        })
        .is_err()
    {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("this host serves {max} connections already, its most"),
        )
            .into_response();
    }
    let slot = Slot(Arc::clone(&shared));
    let bytes = shared.max_message_bytes;
    ws.max_message_size(bytes)
        .max_frame_size(bytes)
        .on_upgrade(move |socket| connection(socket, slot))
}

/// When a connection last sent or was sent a message, in milliseconds since `Shared::epoch`.
struct Activity(AtomicU64);

impl Activity {
    fn touch(&self, shared: &Shared) {
        let ms = shared.epoch.elapsed().as_millis() as u64;
        self.0.store(ms, Ordering::Relaxed);
    }

    /// When the connection becomes idle, as things stand.
    fn deadline(&self, shared: &Shared) -> Instant {
        shared.epoch + Duration::from_millis(self.0.load(Ordering::Relaxed)) + shared.idle
    }
}

/// A close frame with this code and reason.
fn close_frame(code: u16, reason: String) -> Option<CloseFrame> {
    Some(CloseFrame {
        code,
        reason: reason.into(),
    })
}

/// One client: its text messages to the session threads; its queue to its socket on a
/// task of its own, so a client that stops reading is still read (and dropped when its
/// queue fills). Closed when it sends a message too large, or after `--idle-timeout` with
/// no message either way (a seat waiting for others is sent their events, so it is not idle).
async fn connection(socket: WebSocket, slot: Slot) {
    let shared = Arc::clone(&slot.0);
    let conn = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let (queue, mut outgoing) = mpsc::channel::<String>(OUTGOING);
    let dropped = Arc::new(Notify::new());
    shared.conns.lock().insert(
        conn,
        Outbox {
            queue,
            drop: Arc::clone(&dropped),
        },
    );
    let activity = Arc::new(Activity(AtomicU64::new(0)));
    activity.touch(&shared);
    // Why the connection ends, told in the close frame after the queued messages.
    let close: Arc<Mutex<Option<CloseFrame>>> = Arc::default();
    let (mut sink, mut stream) = socket.split();
    let mut writer = {
        let (shared, activity, close) = (
            Arc::clone(&shared),
            Arc::clone(&activity),
            Arc::clone(&close),
        );
        tokio::spawn(async move {
            let send_all = async {
                while let Some(text) = outgoing.recv().await {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                    activity.touch(&shared);
                }
                // The queue closed: the connection ends; the client is told why.
                let frame = close.lock().unwrap_or_else(|e| e.into_inner()).take();
                let _ = sink.send(Message::Close(frame)).await;
            };
            tokio::select! {
                _ = dropped.notified() => {}
                _ = send_all => {}
            }
        })
    };
    let error = |code, message: &str| {
        serde_json::to_string(&ServerMessage::error(code, message, None)).unwrap_or_default()
    };
    let set_close = |frame| *close.lock().unwrap_or_else(|e| e.into_inner()) = frame;
    let mut writer_done = false;
    loop {
        let deadline = activity.deadline(&shared);
        tokio::select! {
            _ = &mut writer => {
                writer_done = true;
                break;
            }
            _ = tokio::time::sleep_until(deadline) => {
                // Sent something meanwhile: not idle yet.
                if activity.deadline(&shared) > Instant::now() {
                    continue;
                }
                let secs = shared.idle.as_secs();
                set_close(close_frame(
                    close_code::NORMAL,
                    format!("idle: no message either way for {secs} s (--idle-timeout)"),
                ));
                break;
            }
            msg = stream.next() => {
                activity.touch(&shared);
                match msg {
                    Some(Ok(Message::Text(text))) => {
                        let text = text.to_string();
                        let thread = shared.route(conn, &text);
                        if shared.threads[thread].send(Job::Text(conn, text)).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(Message::Binary(_))) => shared.conns.deliver(
                        conn,
                        error(
                            ErrorCode::MalformedMessage,
                            "a binary message: a message is a text message of JSON",
                        ),
                    ),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(e)) => {
                        // Too large, or not WebSocket: an error, then a close frame saying
                        // why (the rest of the message is not read).
                        // (A close reason is at most 123 bytes: a short one.)
                        let max = shared.max_message_bytes;
                        let (code, text, close, reason) = if e.to_string().contains("too long") {
                            (
                                ErrorCode::MessageTooLarge,
                                format!("at most {max} bytes a message ({e})"),
                                close_code::SIZE,
                                format!("message too large: at most {max} bytes"),
                            )
                        } else {
                            (
                                ErrorCode::MalformedMessage,
                                e.to_string(),
                                close_code::PROTOCOL,
                                "not a WebSocket message".to_string(),
                            )
                        };
                        shared.conns.deliver(conn, error(code, &text));
                        set_close(close_frame(close, reason));
                        break;
                    }
                }
            }
        }
    }
    // Closing the queue lets the writer send what is queued, then a close; a client that
    // does not read it is not waited for long.
    shared.conns.lock().remove(&conn);
    if !writer_done
        && tokio::time::timeout(Duration::from_secs(5), &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
    for thread in &shared.threads {
        let _ = thread.send(Job::Disconnect(conn)).await;
    }
}
