//! `riffle serve --stdio`: the host protocol (docs/protocol.md) on standard input and output,
//! one JSON message a line, so that a program in any language drives games. Only the
//! transport is here; the session is `riffle_host`'s.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use riffle_content::Loader;
use riffle_host::{Library, Session, read_line};

use super::RootArgs;

/// Options of `riffle serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Read messages from standard input and write the host's to standard output, one JSON
    /// object a line (the only transport yet).
    #[arg(long)]
    stdio: bool,
    /// A game the clients may create (repeatable). Default: every game of the content.
    #[arg(long, value_name = "GAME")]
    game: Vec<String>,
    #[command(flatten)]
    roots: RootArgs,
}

/// The connection id of standard input and output.
const STDIO: u64 = 0;

/// Serves one client on standard input and output until its input ends.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !args.stdio {
        bail!("give --stdio: the protocol on standard input and output (the only transport yet)");
    }
    let paths = args.roots.search_paths(None)?;
    let games = if args.game.is_empty() {
        Loader::new(paths.clone()).games()
    } else {
        args.game.clone()
    };
    let library = Library::load(&paths, &games).map_err(anyhow::Error::msg)?;
    let mut session = Session::new(library);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::BufWriter::new(std::io::stdout().lock());
    serve(&mut session, &mut input, &mut output)?;
    Ok(ExitCode::SUCCESS)
}

/// Each line of `input` to the session, each of its messages to `output` as a line.
fn serve(
    session: &mut Session,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> anyhow::Result<()> {
    let max = session.max_message_bytes();
    while let Some(line) = read_line(input, max).context("reading standard input")? {
        for (_, msg) in session.handle_read(STDIO, line) {
            serde_json::to_writer(&mut *output, &msg)?;
            output.write_all(b"\n")?;
        }
        // A client waits for the answer before it sends more.
        output.flush()?;
    }
    Ok(())
}
