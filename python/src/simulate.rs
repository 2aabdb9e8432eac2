//! Batch simulation from Python: a whole job on threads (`simulate`), or a worker that
//! loads the content once and plays slices of a job (`Simulator`, for Ray actors).

use pyo3::prelude::*;
use riffle_agents::sim::{self, GameRecord, Job, Table};

use crate::content::search_paths;
use crate::value_error;

fn job_of(text: &str) -> PyResult<Job> {
    let mut job: Job = serde_json::from_str(text).map_err(|e| value_error(format!("job: {e}")))?;
    if job.paths.is_empty() {
        job.paths = search_paths(None)?;
    }
    Ok(job)
}

/// Each record as JSON, with its replay (`"replay"`, text) when the job records replays.
fn lines(records: &[GameRecord]) -> Vec<String> {
    records
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).expect("a record serializes");
            if let Some(text) = &r.replay {
                v["replay"] = serde_json::Value::String(text.clone());
            }
            v.to_string()
        })
        .collect()
}

/// Runs a job (JSON, as `riffle sim --job`) on `threads` threads, without the GIL: the
/// records (JSON, in the job's order) and the summary (JSON).
#[pyfunction]
#[pyo3(signature = (job, threads=None))]
pub fn simulate(
    py: Python<'_>,
    job: &str,
    threads: Option<usize>,
) -> PyResult<(Vec<String>, String)> {
    let job = job_of(job)?;
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (records, summary) = py
        .detach(move || {
            let mut records = Vec::new();
            let summary = sim::run(&job, threads, |r| records.push(r.clone()))?;
            Ok::<_, String>((records, summary))
        })
        .map_err(value_error)?;
    Ok((
        lines(&records),
        serde_json::to_string(&summary).map_err(value_error)?,
    ))
}

/// A job's content loaded once, playing the games asked for: a Ray actor holds one.
#[pyclass(unsendable, module = "riffle._riffle")]
pub struct Simulator {
    job: Job,
    table: Table,
}

#[pymethods]
impl Simulator {
    /// Loads the content of `job` (JSON) and checks the job against it.
    #[new]
    fn new(job: &str) -> PyResult<Simulator> {
        let job = job_of(job)?;
        let table = job.table().map_err(value_error)?;
        Ok(Simulator { job, table })
    }

    /// The content's hash: a driver refuses a worker whose hash is not its own.
    #[getter]
    fn content_hash(&self) -> String {
        self.table.content_hash.clone()
    }

    /// The job's number of games.
    #[getter]
    fn total_games(&self) -> u64 {
        self.job.total_games()
    }

    /// Plays games `start..end` of the job, one after the other: their records (JSON).
    fn play(&self, start: u64, end: u64) -> PyResult<Vec<String>> {
        if start > end || end > self.job.total_games() {
            return Err(value_error(format!(
                "games {start}..{end}: the job has {}",
                self.job.total_games()
            )));
        }
        let records = (start..end)
            .map(|i| sim::play_one(&self.job, &self.table, i))
            .collect::<Result<Vec<_>, _>>()
            .map_err(value_error)?;
        Ok(lines(&records))
    }

    /// The summary (JSON) of records (JSON lines) of this job, played anywhere: the same as
    /// one process playing them gives.
    fn summarize(&self, records: Vec<String>) -> PyResult<String> {
        let recs = records
            .iter()
            .map(|l| serde_json::from_str::<GameRecord>(l))
            .collect::<Result<Vec<_>, _>>()
            .map_err(value_error)?;
        serde_json::to_string(&sim::summarize(&self.job, &self.table, &recs)).map_err(value_error)
    }
}
