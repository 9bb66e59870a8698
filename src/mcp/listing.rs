//! The full prompt and resource-template lists, for the lockfile, which
//! pins what each entry says (discovery alone only counts them).
//!
//! The same guards as the tool listing: every page within the caller's
//! deadline, a repeated or empty cursor ends the list, a cap on pages; and
//! the same redaction: what is pinned is what the supervisor sees, with the
//! entry's secrets redacted (see [`super::connection::Connection::list_tools`]).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use rmcp::model::{PaginatedRequestParams, Prompt, ResourceTemplate};
use rmcp::{Peer, RoleClient};

use super::connection::Connection;
use super::error::{ConnectError, Phase};

/// Every prompt (empty when the server advertises none).
pub async fn prompts(
    conn: &Connection,
    peer: &Peer<RoleClient>,
    deadline: Instant,
    budget: Duration,
    max_pages: usize,
) -> Result<Vec<Prompt>, ConnectError> {
    let listed = pages(
        conn.server(),
        Phase::PromptsList,
        (deadline, budget),
        max_pages,
        |params| {
            let peer = peer.clone();
            async move {
                let page = peer.list_prompts(Some(params)).await?;
                Ok((page.prompts, page.next_cursor))
            }
        },
    )
    .await?;
    Ok(conn.redactor().apply_listed(listed))
}

/// Every resource template (empty when the server advertises no resources).
pub async fn resource_templates(
    conn: &Connection,
    peer: &Peer<RoleClient>,
    deadline: Instant,
    budget: Duration,
    max_pages: usize,
) -> Result<Vec<ResourceTemplate>, ConnectError> {
    let listed = pages(
        conn.server(),
        Phase::ResourcesList,
        (deadline, budget),
        max_pages,
        |params| {
            let peer = peer.clone();
            async move {
                let page = peer.list_resource_templates(Some(params)).await?;
                Ok((page.resource_templates, page.next_cursor))
            }
        },
    )
    .await?;
    Ok(conn.redactor().apply_listed(listed))
}

async fn pages<T, F, Fut>(
    server: &str,
    phase: Phase,
    (deadline, budget): (Instant, Duration),
    max_pages: usize,
    fetch: F,
) -> Result<Vec<T>, ConnectError>
where
    F: Fn(PaginatedRequestParams) -> Fut,
    Fut: std::future::Future<Output = Result<(Vec<T>, Option<String>), rmcp::ServiceError>>,
{
    let mut all = Vec::new();
    let mut seen = HashSet::new();
    let mut cursor = None;
    for _ in 0..max_pages.max(1) {
        let left = deadline.saturating_duration_since(Instant::now());
        let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
        let (items, next) = match tokio::time::timeout(left, fetch(params)).await {
            Ok(Ok(page)) => page,
            // A server that never implemented the list has none to pin.
            Ok(Err(rmcp::ServiceError::McpError(data)))
                if data.code == rmcp::model::ErrorCode::METHOD_NOT_FOUND =>
            {
                break;
            }
            Ok(Err(err)) => {
                return Err(ConnectError::Transport {
                    server: server.to_string(),
                    phase,
                    detail: err.to_string(),
                });
            }
            Err(_) => {
                return Err(ConnectError::Timeout {
                    server: server.to_string(),
                    phase,
                    budget,
                    stderr_tail: Vec::new(),
                });
            }
        };
        all.extend(items);
        match next {
            Some(next) if !next.is_empty() && seen.insert(next.clone()) => cursor = Some(next),
            _ => break,
        }
    }
    Ok(all)
}
