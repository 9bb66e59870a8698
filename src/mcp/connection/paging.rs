//! mcpctl's own pagination, one loop for every list (tools, resources,
//! prompts): each page counts against the deadline, and an empty or
//! repeated cursor or the page cap ends the listing, so a server cannot
//! keep a client paging forever.

use std::collections::HashSet;
use std::future::Future;
use std::time::{Duration, Instant};

use rmcp::model::{PaginatedRequestParams, Tool};
use rmcp::{Peer, RoleClient, ServiceError};

use super::{Connection, within};
use crate::mcp::error::{ConnectError, Phase};

/// The default cap on pages per list (a guard against endless cursors).
pub const DEFAULT_MAX_PAGES: usize = 100;

/// How a paginated listing ended, reported so lints can flag bad servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageEnd {
    /// The last page had no `nextCursor`.
    Complete,
    /// A page had an empty `nextCursor` (treated as the end).
    EmptyCursor,
    /// The server sent a cursor it had sent before; listing stopped there.
    RepeatedCursor,
    /// The page cap was reached.
    PageCap,
}

/// The result of a paginated `tools/list`.
#[derive(Debug, Clone)]
pub struct ToolPages {
    /// Every tool from every page, in order.
    pub tools: Vec<Tool>,
    /// How many pages were requested.
    pub pages: usize,
    /// Why listing stopped.
    pub end: PageEnd,
}

/// Every item of a paginated list, and how the listing went.
struct Pages<T> {
    items: Vec<T>,
    pages: usize,
    end: PageEnd,
}

impl Connection {
    /// Every tool, through [`Connection::paginate`]. `budget` is only
    /// reported in timeout errors.
    ///
    /// This is where every catalog is listed from (`check`, `lock`, `call
    /// --direct`, the supervisor's start and refresh), so each tool is
    /// redacted here, once, with the entry's secrets (all but its name, see
    /// [`crate::defs::redact::Redactor::apply_listed`]): whoever shows,
    /// hashes, locks or serves a catalog sees the same redacted text.
    ///
    /// A server that does not advertise the `tools` capability is not asked
    /// (MCP makes tools optional): it has no tools, after zero pages.
    pub async fn list_tools(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
    ) -> Result<ToolPages, ConnectError> {
        self.list_tools_each(deadline, budget, max_pages, |_| {})
            .await
    }

    /// [`Connection::list_tools`], handing each page to `each` as it
    /// arrives (`check` judges schemas while later pages are on their way,
    /// moving them out of the tools until it is done).
    pub async fn list_tools_each(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
        each: impl Fn(&mut [Tool]),
    ) -> Result<ToolPages, ConnectError> {
        if self.peer_info.capabilities.tools.is_none() {
            return Ok(ToolPages {
                tools: Vec::new(),
                pages: 0,
                end: PageEnd::Complete,
            });
        }
        let redactor = self.redactor.clone();
        let listed = self
            .paginate(
                Phase::ToolsList,
                deadline,
                budget,
                max_pages,
                |peer, params| {
                    let (each, redactor) = (&each, &redactor);
                    async move {
                        let page = peer.list_tools(Some(params)).await?;
                        let mut tools = redactor.apply_listed(page.tools);
                        each(&mut tools);
                        Ok((tools, page.next_cursor))
                    }
                },
            )
            .await?;
        Ok(ToolPages {
            tools: listed.items,
            pages: listed.pages,
            end: listed.end,
        })
    }

    /// [`Connection::list_tools`] with a fresh budget, e.g. the supervisor's
    /// 30 s refresh after `notifications/tools/list_changed`.
    pub async fn refresh_tools(&mut self, budget: Duration) -> Result<ToolPages, ConnectError> {
        self.list_tools(Instant::now() + budget, budget, DEFAULT_MAX_PAGES)
            .await
    }

    /// Count resources (all pages, same guards as tools) within `deadline`.
    pub async fn count_resources(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
    ) -> Result<usize, ConnectError> {
        let listed = self
            .paginate(
                Phase::ResourcesList,
                deadline,
                budget,
                max_pages,
                |peer, params| async move {
                    let page = peer.list_resources(Some(params)).await?;
                    Ok((page.resources, page.next_cursor))
                },
            )
            .await?;
        Ok(listed.items.len())
    }

    /// Count prompts (all pages, same guards as tools) within `deadline`.
    pub async fn count_prompts(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
    ) -> Result<usize, ConnectError> {
        let listed = self
            .paginate(
                Phase::PromptsList,
                deadline,
                budget,
                max_pages,
                |peer, params| async move {
                    let page = peer.list_prompts(Some(params)).await?;
                    Ok((page.prompts, page.next_cursor))
                },
            )
            .await?;
        Ok(listed.items.len())
    }

    /// Follow a paginated list with `fetch` (one page: its items and its
    /// `nextCursor`): every page within `deadline`, stopping on an empty or
    /// repeated cursor or after `max_pages`; a stdio server that printed
    /// garbage meanwhile fails the listing.
    async fn paginate<T, F, Fut>(
        &mut self,
        phase: Phase,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
        fetch: F,
    ) -> Result<Pages<T>, ConnectError>
    where
        F: Fn(Peer<RoleClient>, PaginatedRequestParams) -> Fut,
        Fut: Future<Output = Result<(Vec<T>, Option<String>), ServiceError>>,
    {
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        let end = loop {
            if pages >= max_pages.max(1) {
                break PageEnd::PageCap;
            }
            pages += 1;
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timed_out(phase, budget).await);
            }
            let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
            let (page, next) = match within(
                self.tap.as_deref(),
                left,
                fetch(self.peer().clone(), params),
            )
            .await
            {
                Ok(Ok(page)) => page,
                Ok(Err(err)) => return Err(self.request_error(phase, err).await),
                Err(_) => return Err(self.timed_out(phase, budget).await),
            };
            items.extend(page);
            match next {
                None => break PageEnd::Complete,
                Some(next) if next.is_empty() => break PageEnd::EmptyCursor,
                Some(next) if !seen.insert(next.clone()) => break PageEnd::RepeatedCursor,
                Some(next) => cursor = Some(next),
            }
        };
        if let Some(err) = self
            .tap
            .as_ref()
            .and_then(|t| t.failure(&self.server, phase))
        {
            return Err(err.redacted(&self.redactor));
        }
        Ok(Pages { items, pages, end })
    }
}
