//! Which page the learner is on, read from the URL's hash (`#/playground`).
//!
//! Hash routing keeps Tellers a plain static site: every page is
//! `index.html`, so any static host (or a file copied to a laptop) serves
//! it, and a link to `#/lessons` opens the lessons page.

/// A page of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The welcome page, at `#/` (or no hash at all).
    Home,
    /// The live simulator with its sliders, at `#/playground`.
    Playground,
    /// The list of lessons, at `#/lessons`.
    Lessons,
    /// Any hash we do not know, so a mistyped link says so.
    NotFound,
}

impl Route {
    /// The pages shown in the navigation bar, in order.
    pub const NAV: [Route; 2] = [Route::Playground, Route::Lessons];

    /// The link that opens this page.
    pub fn href(self) -> &'static str {
        match self {
            Route::Home | Route::NotFound => "#/",
            Route::Playground => "#/playground",
            Route::Lessons => "#/lessons",
        }
    }

    /// The page's name as the learner sees it in the navigation bar.
    pub fn label(self) -> &'static str {
        match self {
            Route::Home => "Home",
            Route::Playground => "Playground",
            Route::Lessons => "Lessons",
            Route::NotFound => "Page not found",
        }
    }

    /// The browser tab's title while this page is open.
    pub fn document_title(self) -> String {
        match self {
            Route::Home => "Tellers".to_owned(),
            other => format!("{} · Tellers", other.label()),
        }
    }
}

/// Reads a URL hash such as `#/playground` (as `location.hash` gives it)
/// and says which page it opens.
///
/// The leading `#` and `/`, a trailing `/`, and anything after `?` (kept
/// for scenario state) are ignored, so `#/lessons/` and
/// `#/playground?cores=4` still find their page. `#/lessons/<slug>`
/// belongs to the lessons page.
pub fn route_from_hash(hash: &str) -> Route {
    let path = hash.strip_prefix('#').unwrap_or(hash);
    let path = path.split('?').next().unwrap_or_default();
    let path = path.trim_matches('/');
    let first = path.split('/').next().unwrap_or_default();
    match first {
        "" => Route::Home,
        "playground" => Route::Playground,
        "lessons" => Route::Lessons,
        _ => Route::NotFound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_root_hashes_open_home() {
        for hash in ["", "#", "#/", "/", "#//"] {
            assert_eq!(route_from_hash(hash), Route::Home, "hash {hash:?}");
        }
    }

    #[test]
    fn known_pages_are_found_with_or_without_slashes_and_queries() {
        assert_eq!(route_from_hash("#/playground"), Route::Playground);
        assert_eq!(route_from_hash("#playground"), Route::Playground);
        assert_eq!(route_from_hash("#/playground/"), Route::Playground);
        assert_eq!(
            route_from_hash("#/playground?cores=4&seed=7"),
            Route::Playground
        );
        assert_eq!(route_from_hash("#/lessons"), Route::Lessons);
        assert_eq!(route_from_hash("#/lessons/littles-law"), Route::Lessons);
    }

    #[test]
    fn a_whole_scenario_after_the_path_still_opens_the_playground() {
        let hash = "#/playground?model=thread-pool&cores=4&cpu_ms=10.0&timeout_ms=none&presenter=1&speed=2.5";
        assert_eq!(route_from_hash(hash), Route::Playground);
        assert_eq!(
            route_from_hash("#/playground/?seed=%3Cscript%3E"),
            Route::Playground
        );
        assert_eq!(route_from_hash("#/playground?"), Route::Playground);
    }

    #[test]
    fn unknown_hashes_are_not_found_rather_than_silently_home() {
        assert_eq!(route_from_hash("#/playgroundx"), Route::NotFound);
        assert_eq!(route_from_hash("#/Lessons"), Route::NotFound);
        assert_eq!(route_from_hash("#/nope"), Route::NotFound);
    }

    #[test]
    fn every_link_leads_back_to_its_own_page() {
        for route in [Route::Home, Route::Playground, Route::Lessons] {
            assert_eq!(route_from_hash(route.href()), route);
        }
        assert_eq!(route_from_hash(Route::NotFound.href()), Route::Home);
    }

    #[test]
    fn titles_name_the_page_then_the_app() {
        assert_eq!(Route::Home.document_title(), "Tellers");
        assert_eq!(Route::Lessons.document_title(), "Lessons · Tellers");
    }
}
