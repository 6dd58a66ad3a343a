//! Drawing on a 2D canvas: the charts (with plotters) and the tellers scene.
//!
//! Colours are the Okabe–Ito palette, which stays distinct for the common
//! kinds of colour blindness; every colour also has a label in a legend.
//! Everything is drawn for the width the canvas gets on the page (see
//! [`watch_width`]) at the screen's pixel ratio, so text keeps its size on
//! a phone and stays sharp on a high-DPI screen.
//!
//! The scene stays on the raw canvas: it is redrawn every animation frame
//! with up to a few thousand dots, which one canvas path fills at once,
//! where plotters would draw and style each dot on its own.
//! The layout decisions (what fits, what is summed up as "+N more") are
//! plain arithmetic here, tested natively; the numbers come from
//! [`tellers_sim::Snapshot`].

use leptos::html;
use leptos::prelude::*;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::charts::{
    chart_layout, clip_to_range, inside_axes, legend_height, legend_layout, linear_tick_label,
    log_key_points, log_tick_label, palette, type_px, Chart, ChartLayout, LegendEntry, Mark,
    Series, LEGEND_MARK, LEGEND_ROW, SIDE_PX, X_LABEL_ROW, X_TICKS_PX,
};
use crate::figures::{
    has_workers, scene_outcomes, scene_parts, tellers_detail, tellers_titles, Outcome,
};
use crate::format::fmt_count;
use tellers_sim::{Snapshot, TellerKind, TellerState};

/// Colours that follow the light or dark scheme.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    /// Text and axes.
    pub ink: &'static str,
    /// Secondary text and grid.
    pub muted: &'static str,
    /// Grid lines.
    pub grid: &'static str,
    /// Empty slots and idle tellers: about 3.4:1 (light) and 3.2:1 (dark)
    /// against the panel, so a projector does not wash the pool's size out
    /// (they were 1.6:1 and 1.7:1), and apart in lightness from the busy
    /// states too (1.5:1 or more); a count written on one keeps over 4:1.
    pub empty: &'static str,
    /// Blue that reads on this background (charts draw [`palette::BLUE`] in it).
    pub blue: &'static str,
}

impl Theme {
    /// The theme for a light or dark page.
    pub fn new(dark: bool) -> Theme {
        if dark {
            Theme {
                ink: "#e6ebf0",
                muted: "#a8b3c0",
                grid: "#2b3642",
                empty: "#5f7085",
                blue: palette::SKY,
            }
        } else {
            Theme {
                ink: "#1b2430",
                muted: "#4a5565",
                grid: "#dde2dd",
                empty: "#858d87",
                blue: palette::BLUE,
            }
        }
    }
}

/// The screen's device pixels per CSS pixel (1–3).
pub fn pixel_ratio() -> f64 {
    web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0)
}

/// The 2D context of `canvas`.
fn context2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

/// Gives `canvas` `w` × `h` CSS pixels of drawing at the screen's pixel
/// ratio `dpr`, cleared, with its context's user space in device pixels.
fn size_canvas(
    canvas: &HtmlCanvasElement,
    ctx: &CanvasRenderingContext2d,
    w: f64,
    h: f64,
    dpr: f64,
) {
    let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
    if canvas.width() != pw {
        canvas.set_width(pw);
    }
    if canvas.height() != ph {
        canvas.set_height(ph);
    }
    let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, f64::from(pw), f64::from(ph));
}

/// The 2D context of `canvas`, sized for `dpr` device pixels per unit,
/// with user space in units of a `w` × `h` drawing.
fn context(
    canvas: &HtmlCanvasElement,
    w: f64,
    h: f64,
    dpr: f64,
) -> Option<CanvasRenderingContext2d> {
    let ctx = context2d(canvas)?;
    size_canvas(canvas, &ctx, w, h, dpr);
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    Some(ctx)
}

/// Watches the width an element gets on the page. Dropping it stops.
pub struct WidthWatch {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
}

impl Drop for WidthWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// How a canvas fits the page: the width it gets, CSS px, and how much
/// larger than the usual 16 px the page's type is there (presenter mode,
/// or a reader's larger default font), which its drawing follows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    /// Width, CSS px.
    pub width: f64,
    /// The page's font size there over 16 px, 1–2.
    pub zoom: f64,
}

impl Fit {
    /// The drawing's units for this fit: its width in them, and device
    /// pixels per unit (a unit is a CSS pixel times the zoom).
    pub fn units(self) -> (f64, f64) {
        let zoom = self.zoom.clamp(1.0, 2.0);
        (self.width / zoom, pixel_ratio() * zoom)
    }
}

/// Calls `f` with how `el` fits the page once it is laid out and again
/// whenever its width changes (a window resized, presenter mode, a phone
/// turned). The browser reports it after layout, so reading it forces no
/// layout of its own.
pub fn watch_width(el: &web_sys::Element, f: impl Fn(Fit) + 'static) -> Option<WidthWatch> {
    let target = el.clone();
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let last = entries.get(entries.length().saturating_sub(1));
        if let Ok(entry) = last.dyn_into::<web_sys::ResizeObserverEntry>() {
            let font_px = web_sys::window()
                .and_then(|w| w.get_computed_style(&target).ok().flatten())
                .and_then(|style| style.get_property_value("font-size").ok())
                .and_then(|v| tellers_sim::text::number(v.trim_end_matches("px")))
                .unwrap_or(16.0);
            f(Fit {
                width: entry.content_rect().width(),
                zoom: font_px / 16.0,
            });
        }
    });
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(el);
    Some(WidthWatch {
        observer,
        _callback: callback,
    })
}

/// How `canvas` fits the page: width 0 until it is laid out, then
/// following it (see [`watch_width`]) for as long as the calling
/// component lives.
pub fn canvas_fit(canvas: NodeRef<html::Canvas>) -> ReadSignal<Fit> {
    let fit = RwSignal::new(Fit::default());
    Effect::new(move |_| {
        let Some(c) = canvas.get() else {
            return;
        };
        let watch = watch_width(&c, move |new: Fit| {
            // Sub-pixel jitter would redraw for nothing. The drawing waits
            // for a task of its own: the browser reports every canvas of a
            // page in the same frame, and drawing them all there (at
            // start-up, after the page's first layout) made a long task.
            let old = fit.get_untracked();
            if (new.width - old.width).abs() >= 0.5 || (new.zoom - old.zoom).abs() > 0.01 {
                set_timeout(move || _ = fit.try_set(new), std::time::Duration::ZERO);
            }
        });
        let watch = SendWrapper::new(watch);
        on_cleanup(move || drop(watch));
    });
    fit.read_only()
}

/// Runs `draw` soon, in a task of its own, once however often it is asked
/// for before then (`pending` remembers that it is asked for). `draw` reads
/// what it needs when it runs, so the drawing is of the latest state. A
/// change that touches every chart (a preset, a restart) then draws them in
/// several short tasks, after the page's own update, not in one long one.
pub fn draw_soon(pending: StoredValue<bool>, draw: impl FnOnce() + 'static) {
    if pending.try_get_value().unwrap_or(true) {
        return;
    }
    pending.set_value(true);
    set_timeout(
        move || {
            // The component that asked is gone: nothing to draw on.
            if pending.try_update_value(|p| *p = false).is_some() {
                draw();
            }
        },
        std::time::Duration::ZERO,
    );
}

/// A `#rrggbb` colour as plotters takes it (black if malformed).
pub fn rgb(hex: &str) -> RGBColor {
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0)
    };
    if hex.len() == 7 && hex.starts_with('#') {
        RGBColor(channel(1), channel(3), channel(5))
    } else {
        RGBColor(0, 0, 0)
    }
}

/// A 2D context that draws its text last, grouped by font and colour:
/// setting a canvas font makes the browser parse it as CSS (and the first
/// time, look the font up), which costs more than drawing the text, so
/// each font is set once per drawing. Text always lies on top of shapes.
struct Pen {
    ctx: CanvasRenderingContext2d,
    texts: std::cell::RefCell<Vec<Label>>,
}

/// One piece of text, waiting to be drawn.
struct Label {
    text: String,
    x: f64,
    y: f64,
    font: &'static str,
    color: &'static str,
    align: &'static str,
}

impl Pen {
    fn new(ctx: CanvasRenderingContext2d) -> Pen {
        ctx.set_text_baseline("middle");
        Pen {
            ctx,
            texts: std::cell::RefCell::new(Vec::new()),
        }
    }
}

impl Drop for Pen {
    fn drop(&mut self) {
        let mut texts = std::mem::take(self.texts.get_mut());
        texts.sort_unstable_by_key(|t| (t.font, t.color, t.align));
        let (mut font, mut color, mut align) = ("", "", "");
        for t in &texts {
            if t.font != font {
                self.ctx.set_font(t.font);
                font = t.font;
            }
            if t.color != color {
                self.ctx.set_fill_style_str(t.color);
                color = t.color;
            }
            if t.align != align {
                self.ctx.set_text_align(t.align);
                align = t.align;
            }
            let _ = self.ctx.fill_text(&t.text, t.x, t.y);
        }
    }
}

impl std::ops::Deref for Pen {
    type Target = CanvasRenderingContext2d;
    fn deref(&self) -> &CanvasRenderingContext2d {
        &self.ctx
    }
}

/// Text at (`x`, `y`), vertically centred; drawn when the pen is dropped.
fn text(
    ctx: &Pen,
    s: &str,
    x: f64,
    y: f64,
    font: &'static str,
    color: &'static str,
    align: &'static str,
) {
    ctx.texts.borrow_mut().push(Label {
        text: s.to_owned(),
        x,
        y,
        font,
        color,
        align,
    });
}

fn square(ctx: &CanvasRenderingContext2d, x: f64, y: f64, size: f64, color: &str) {
    ctx.set_fill_style_str(color);
    ctx.fill_rect(x, y, size, size);
    if color == palette::YELLOW {
        ctx.set_stroke_style_str(palette::YELLOW_EDGE);
        ctx.set_line_width(1.5);
        ctx.stroke_rect(x + 0.75, y + 0.75, size - 1.5, size - 1.5);
    }
}

/// Draws up to `cols × rows` dots in a grid at (`x`, `y`), `step` apart,
/// then "+N more" under it in `font`.
#[allow(clippy::too_many_arguments)]
fn dot_grid(
    ctx: &Pen,
    th: &Theme,
    n: u64,
    (x, y): (f64, f64),
    (cols, rows): (u64, u64),
    step: f64,
    color: &str,
    font: &'static str,
) {
    let shown = n.min(cols * rows);
    // One path for all the dots: a fill per dot would cost a call each.
    let r = step * 0.36;
    ctx.begin_path();
    for i in 0..shown {
        let (cx, cy) = ((i % cols) as f64, (i / cols) as f64);
        let (px, py) = (x + cx * step + step / 2.0, y + cy * step + step / 2.0);
        ctx.move_to(px + r, py);
        let _ = ctx.arc(px, py, r, 0.0, std::f64::consts::TAU);
    }
    ctx.set_fill_style_str(color);
    ctx.fill();
    if n > shown {
        let y_more = y + rows as f64 * step + 12.0;
        text(
            ctx,
            &format!("+{} more", fmt_count((n - shown) as f64)),
            x,
            y_more,
            font,
            th.ink,
            "left",
        );
    }
}

/// Tile size, columns and how many tiles fit, for `n` tellers in a
/// `w` × `h` area: as large as possible (at most 64 px, at least 10 px).
pub fn teller_grid(n: usize, w: f64, h: f64, gap: f64) -> (f64, usize, usize) {
    let n = n.max(1);
    let mut size = 64.0f64;
    loop {
        let cols = ((w + gap) / (size + gap)).floor().max(1.0) as usize;
        let rows = ((h + gap) / (size + gap)).floor().max(1.0) as usize;
        if cols * rows >= n || size <= 10.0 {
            return (size, cols, cols * rows);
        }
        size -= 1.0;
    }
}

/// Where the listed tellers go in their area: the tile size, px, and
/// each tile's column and row, for as many tellers as fit.
#[derive(Debug, PartialEq)]
pub struct TellerPlaces {
    /// Tile size, px.
    pub size: f64,
    /// (column, row) of each teller shown, in the list's order.
    pub cells: Vec<(usize, usize)>,
}

/// Places for `n` listed tellers in a `w` × `h` area (px, `gap` between
/// tiles). Where each of `loops` loops has its own pool of `per_loop`
/// workers, listed after the loops pool by pool, each loop stands above
/// its own workers, so a learner sees whose worker is whose, if that fits
/// at half the reading-order size or more (and 10 px at least); otherwise,
/// and for every other server, tiles go in reading order ([`teller_grid`]).
pub fn teller_places(
    n: usize,
    loops: usize,
    per_loop: usize,
    w: f64,
    h: f64,
    gap: f64,
) -> TellerPlaces {
    let (size, cols, fit) = teller_grid(n, w, h, gap);
    let in_order = || TellerPlaces {
        size,
        cells: (0..n.min(fit)).map(|i| (i % cols, i / cols)).collect(),
    };
    // One loop's pool is all the workers: a column of them shows nothing
    // more than reading order does, in smaller tiles.
    if per_loop == 0 || loops < 2 || n != loops * (1 + per_loop) {
        return in_order();
    }
    let fits = |px: f64| {
        let across = ((w + gap) / (px + gap)).floor() as usize;
        let down = ((h + gap) / (px + gap)).floor() as usize;
        across >= loops && down > per_loop
    };
    let mut px = 64.0f64;
    while px >= (size / 2.0).max(10.0) {
        if fits(px) {
            let loops_row = (0..loops).map(|i| (i, 0));
            let pools = (0..loops * per_loop).map(|j| (j / per_loop, 1 + j % per_loop));
            return TellerPlaces {
                size: px,
                cells: loops_row.chain(pools).collect(),
            };
        }
        px -= 1.0;
    }
    in_order()
}

fn state_color(state: TellerState, th: &Theme) -> &'static str {
    match state {
        TellerState::OnCore => palette::ORANGE,
        TellerState::Ready => palette::YELLOW,
        TellerState::Blocked => palette::SKY,
        TellerState::Idle => th.empty,
    }
}

/// Most cores the scene draws one square for.
const CORES_SHOWN: u32 = 32;

/// The cores' heading, one line (a second text beside it would run into it
/// once the numbers are long): "Cores: 3 of 4 busy", or with more cores than
/// squares "Cores: 1,024 of 1,024 busy (32 drawn)".
pub fn cores_heading(busy: u32, cores: u32, shown: u32) -> String {
    let head = format!(
        "Cores: {} of {} busy",
        fmt_count(f64::from(busy)),
        fmt_count(f64::from(cores))
    );
    if cores > shown {
        format!("{head} ({shown} drawn)")
    } else {
        head
    }
}

/// The fonts of the tellers scene (CSS strings), and their sizes, px.
#[derive(Debug, PartialEq)]
pub struct SceneFonts {
    /// Section headings.
    pub head: &'static str,
    /// Plain text.
    pub body: &'static str,
    /// Bold text: "+N more", counts on event loops.
    pub strong: &'static str,
    /// The outcome counts.
    pub number: &'static str,
    /// Sizes of the four, px, in that order.
    pub px: [f64; 4],
}

const WIDE_FONTS: SceneFonts = SceneFonts {
    head: "bold 17px system-ui, sans-serif",
    body: "15px system-ui, sans-serif",
    strong: "bold 14px system-ui, sans-serif",
    number: "bold 16px system-ui, sans-serif",
    px: [17.0, 15.0, 14.0, 16.0],
};

const NARROW_FONTS: SceneFonts = SceneFonts {
    head: "bold 16px system-ui, sans-serif",
    body: "14px system-ui, sans-serif",
    strong: "bold 13px system-ui, sans-serif",
    number: "bold 15px system-ui, sans-serif",
    px: [16.0, 14.0, 13.0, 15.0],
};

/// A rectangle of the scene, CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    /// Left, CSS px.
    pub x: f64,
    /// Top, CSS px.
    pub y: f64,
    /// Width, CSS px.
    pub w: f64,
    /// Height, CSS px.
    pub h: f64,
}

/// Where the parts of the tellers scene go on a canvas `width` CSS px
/// wide. Each section is a heading (title and muted subtitle) over its
/// content: three columns on a wide canvas, one under the other on a narrow one.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneLayout {
    /// Canvas width, CSS px.
    pub width: f64,
    /// Canvas height, CSS px.
    pub height: f64,
    /// The fonts.
    pub fonts: &'static SceneFonts,
    /// Title and subtitle line middles, below a section's top, CSS px.
    pub heading: (f64, f64),
    /// Content starts this far below a section's top, CSS px.
    pub content: f64,
    /// Spacing of the dot grids, CSS px.
    pub step: f64,
    /// The line: section top-left, and its dot grid (columns, rows).
    pub line: Area,
    /// Columns and rows of the line's dots.
    pub line_grid: (u64, u64),
    /// The tellers: section; the tile grid fills `w` × `h` under the heading.
    pub tellers: Area,
    /// The cores: top of their heading line, left, room for squares.
    pub cores: Area,
    /// The back office: section top-left and width.
    pub back: Area,
    /// Columns and rows of the back office's dots.
    pub back_grid: (u64, u64),
    /// The parts under the sections (the dependency's connections and
    /// slots, the callers' circuit breaker; see [`scene_parts`]), `dep_row`
    /// px apart; none high when there is none.
    pub dep: Area,
    /// Spacing of the dependency's parts, CSS px: [`DEP_ROW`] when a part's
    /// heading and detail share a line (wide), else [`DEP_PART`] (stacked).
    pub dep_row: f64,
    /// The outcome rows ([`scene_outcomes`]: finished, refused, timed out,
    /// blocked): first row's middle, left, width.
    pub outcomes: Area,
    /// Spacing of the outcome rows, CSS px.
    pub outcome_row: f64,
    /// The legend entries.
    pub legend: Vec<LegendEntry>,
    /// Spacing of the legend's lines, CSS px.
    pub legend_row: f64,
}

/// Height of one of the dependency's parts in the scene (its connections,
/// its slots) with its heading over its detail (narrow), CSS px.
pub const DEP_PART: f64 = 44.0;

/// Height of one of the dependency's parts on one line (wide), CSS px.
pub const DEP_ROW: f64 = 26.0;

/// Narrower than this, the scene's sections stack, CSS px. A lesson's
/// column on a laptop (about 710 px) takes the three columns: stacked, its
/// scene was 680 px tall, more than a 768 px screen shows beside Play.
pub const SCENE_WIDE_FROM: f64 = 700.0;

/// How much the scene's drawing follows the page's larger type (`fit.zoom`,
/// 1–2) on a canvas `fit.width` CSS px wide: fully, unless that would make
/// a canvas wide enough for the three columns fall back to the stacked
/// sections, which are twice as tall (a presenter's 720p screen has no
/// room for them). The type then grows only as far as the columns allow.
pub fn scene_zoom(fit: Fit) -> f64 {
    let zoom = fit.zoom.clamp(1.0, 2.0);
    if fit.width >= SCENE_WIDE_FROM {
        // A pixel of margin: the canvas's width is rounded to whole device
        // pixels, and the drawing must not come out a hair under the mark.
        zoom.min((fit.width - 1.0) / SCENE_WIDE_FROM).max(1.0)
    } else {
        zoom
    }
}

/// Lays out the scene for a canvas `width` CSS px wide, with the legend
/// `labels` as `measure` measures them in the layout's body font (see
/// [`scene_fonts`]), room for `dep_parts` parts under the sections (0–3:
/// the dependency's connections and slots, the callers' circuit breaker;
/// see [`scene_parts`]) and `outcome_rows` outcome rows (3, or 4 with the
/// breaker's; see [`scene_outcomes`]).
pub fn scene_layout(
    width: f64,
    labels: &[&str],
    measure: &dyn Fn(&str) -> f64,
    dep_parts: usize,
    outcome_rows: usize,
) -> SceneLayout {
    let width = width.max(200.0);
    let parts = dep_parts as f64;
    let rows = outcome_rows as f64;
    let fonts = scene_fonts(width);
    // Legend entries: a 16 px square, 6 px, the label.
    let legend = |x0: f64, y0: f64, max_w: f64, gap: f64, row_h: f64| {
        legend_layout(labels, measure, (x0, y0), max_w, 22.0, gap, row_h)
    };
    if width >= SCENE_WIDE_FROM {
        let pad = 16.0;
        let inner = width - 2.0 * pad;
        let gap = 24.0;
        let side = (inner * 0.27).floor();
        let mid = inner - 2.0 * side - 2.0 * gap;
        let step = 20.0;
        let row_h = 26.0;
        // Under every column, over the legend: the dependency's limits, a
        // line each (its columns are too narrow for them).
        let dep_y = 368.0;
        let legend_top = 384.0 + parts * DEP_ROW;
        let (legend, legend_h) = legend(pad, legend_top, inner, 22.0, row_h);
        let xb = width - pad - side;
        SceneLayout {
            width,
            height: legend_top - row_h / 2.0 + legend_h + 5.0,
            fonts,
            heading: (22.0, 44.0),
            content: 60.0,
            step,
            line: Area {
                x: pad,
                y: 0.0,
                w: side,
                h: 10.0 * step,
            },
            line_grid: ((side / step).floor() as u64, 10),
            tellers: Area {
                x: pad + side + gap,
                y: 0.0,
                w: mid,
                h: 208.0,
            },
            cores: Area {
                x: pad + side + gap,
                y: 300.0,
                w: mid,
                h: 28.0,
            },
            back: Area {
                x: xb,
                y: 0.0,
                w: side,
                h: 6.0 * step,
            },
            back_grid: ((side / step).floor() as u64, 6),
            dep: Area {
                x: pad,
                y: dep_y,
                w: inner,
                h: parts * DEP_ROW,
            },
            dep_row: DEP_ROW,
            outcomes: Area {
                x: xb,
                y: 232.0,
                w: side,
                h: rows * 28.0,
            },
            outcome_row: 28.0,
            legend,
            legend_row: row_h,
        }
    } else {
        let pad = 12.0;
        let inner = width - 2.0 * pad;
        let step = 16.0;
        let (heading, content) = ((16.0, 36.0), 50.0);
        let cols = (inner / step).floor() as u64;
        // Each dot grid leaves a line under it for "+N more".
        let line = Area {
            x: pad,
            y: 0.0,
            w: inner,
            h: 3.0 * step,
        };
        let tellers_y = line.y + content + line.h + 26.0;
        let tellers = Area {
            x: pad,
            y: tellers_y,
            w: inner,
            h: 112.0,
        };
        let cores_y = tellers.y + content + tellers.h + 24.0;
        let cores = Area {
            x: pad,
            y: cores_y,
            w: inner,
            h: 24.0,
        };
        let back_y = cores.y + 16.0 + cores.h + 40.0;
        let back = Area {
            x: pad,
            y: back_y,
            w: inner,
            h: 3.0 * step,
        };
        let dep = Area {
            x: pad,
            y: back.y + content + back.h + 30.0,
            w: inner,
            h: parts * DEP_PART,
        };
        let outcomes_y = dep.y + dep.h + if dep_parts > 0 { 12.0 } else { 4.0 };
        let outcome_row = 24.0;
        let legend_top = outcomes_y + rows * outcome_row + 8.0;
        let row_h = 22.0;
        let (legend, legend_h) = legend(pad, legend_top, inner, 18.0, row_h);
        SceneLayout {
            width,
            height: legend_top - row_h / 2.0 + legend_h + 6.0,
            fonts,
            heading,
            content,
            step,
            line,
            line_grid: (cols, 3),
            tellers,
            cores,
            back,
            back_grid: (cols, 3),
            dep,
            dep_row: DEP_PART,
            outcomes: Area {
                x: pad,
                y: outcomes_y,
                w: inner,
                h: rows * outcome_row,
            },
            outcome_row,
            legend,
            legend_row: row_h,
        }
    }
}

/// The scene's fonts on a canvas `width` CSS px wide.
pub fn scene_fonts(width: f64) -> &'static SceneFonts {
    if width >= SCENE_WIDE_FROM {
        &WIDE_FONTS
    } else {
        &NARROW_FONTS
    }
}

/// A section's heading at the top of `area`, with a muted line under it.
fn heading(ctx: &Pen, th: &Theme, lay: &SceneLayout, area: &Area, title: &str, subtitle: &str) {
    let f = lay.fonts;
    text(
        ctx,
        title,
        area.x,
        area.y + lay.heading.0,
        f.head,
        th.ink,
        "left",
    );
    text(
        ctx,
        subtitle,
        area.x,
        area.y + lay.heading.1,
        f.body,
        th.muted,
        "left",
    );
}

/// Space between the tellers' squares, CSS px.
const TELLER_GAP: f64 = 4.0;

/// The first of [`tellers_titles`] that fits `width` CSS px in `font` (a
/// long heading ran into the back office's). `raw`'s font is left as it
/// was.
fn tellers_title(
    raw: &CanvasRenderingContext2d,
    snap: &Snapshot,
    font: &str,
    width: f64,
) -> String {
    let before = raw.font();
    raw.set_font(font);
    let options = tellers_titles(snap);
    let fits = |s: &str| raw.measure_text(s).map_or(true, |m| m.width() <= width);
    let title = options
        .iter()
        .find(|s| fits(s))
        .unwrap_or(&options[2])
        .clone();
    raw.set_font(&before);
    title
}

/// A loop's count in the forms it may take, best first: in full
/// (`2,413`), then from 1,000 in short (`2.4k`, `24k`, `2.4M`).
fn count_forms(n: u64) -> Vec<String> {
    let mut forms = vec![fmt_count(n as f64)];
    let short = |x: f64, unit: &str| {
        let text = crate::format::fmt_num(x, usize::from(x < 9.95));
        format!("{}{unit}", text.strip_suffix(".0").unwrap_or(&text))
    };
    let x = n as f64;
    if n >= 1000 {
        forms.push(if x < 999_500.0 {
            short(x / 1e3, "k")
        } else {
            short(x / 1e6, "M")
        });
    }
    forms
}

/// The smallest teller square, CSS px, that has room for a loop's count.
const COUNT_FROM_PX: f64 = 30.0;

/// A loop's count where it does not fit in the section's type.
const COUNT_SMALL_FONT: &str = "bold 11px system-ui, sans-serif";

/// A legend entry's mark: a colour, or one of the marks drawn on tellers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Key {
    /// A square of this colour.
    Fill(&'static str),
    /// An idle square outlined, as a worker thread is.
    Outline,
    /// An idle square with a count in it, as an event loop has.
    Count,
}

/// The scene's legend: mark and meaning. The colours always; the count and
/// the outline only where the scene draws them (`loops` drawn big enough
/// for their count, `counts_drawn`; `workers` beside loops).
fn scene_legend(
    th: &Theme,
    loops: bool,
    workers: bool,
    counts_drawn: bool,
) -> Vec<(Key, &'static str)> {
    let mut legend = vec![
        (Key::Fill(palette::ORANGE), "on a core"),
        (Key::Fill(palette::YELLOW), "wants a core"),
        (Key::Fill(palette::SKY), "holds a request that waits"),
        (Key::Fill(th.empty), "idle"),
        (Key::Fill(th.ink), "request in line"),
    ];
    if loops && counts_drawn {
        legend.push((Key::Count, "event loop: requests it holds"));
    }
    if workers {
        legend.push((Key::Outline, "worker thread"));
    }
    legend
}

/// The tellers scene: the line, the tellers and the cores they hold, the
/// back office, what became of finished requests, and a legend. Drawn for
/// the canvas's width (its `width` in device pixels) and its `data-zoom`,
/// which the panel sets from how it fits the page (see [`Fit`]).
pub fn draw_tellers(canvas: &HtmlCanvasElement, snap: &Snapshot, th: &Theme) {
    let zoom = canvas
        .get_attribute("data-zoom")
        .and_then(|z| tellers_sim::text::number(&z))
        .unwrap_or(1.0)
        .clamp(1.0, 2.0);
    let dpr = pixel_ratio() * zoom;
    let Some(raw) = context2d(canvas) else {
        return;
    };
    let width = (f64::from(canvas.width()) / dpr).max(1.0);
    raw.set_font(scene_fonts(width).body);
    let measure = |s: &str| {
        raw.measure_text(s)
            .map_or(s.len() as f64 * 9.0, |m| m.width())
    };
    let loops = snap.loops > 0;
    let workers = has_workers(snap);
    let dep = scene_parts(snap);
    let outcomes = scene_outcomes(snap);
    // The legend names the loops' counts only where they are drawn, which
    // the grid's square size decides; the tellers' area does not depend on
    // the legend, so a layout without one gives it.
    let area = scene_layout(width, &[], &measure, dep.len(), outcomes.len()).tellers;
    // Each loop's count as it fits its square: in full or short, in the
    // section's type or a smaller one (the grid's square size does not
    // depend on the legend). With the loops' shared line no request is
    // pinned to a loop: a count would only repeat the loop's colour (1 or
    // 0) beside a full back office.
    let TellerPlaces { size, cells } = teller_places(
        snap.tellers.len(),
        snap.loops as usize,
        snap.workers_per_loop as usize,
        area.w,
        area.h,
        TELLER_GAP,
    );
    let counted = snap.loop_counts && size >= COUNT_FROM_PX;
    let fonts = [scene_fonts(width).strong, COUNT_SMALL_FONT];
    let fits = |text: &str, font: &str| {
        raw.set_font(font);
        raw.measure_text(text)
            .map_or(true, |m| m.width() <= size - 4.0)
    };
    let counts: Vec<Option<(String, &'static str)>> = snap
        .tellers
        .iter()
        .map(|tl| {
            if !counted || tl.kind != TellerKind::Loop {
                return None;
            }
            count_forms(u64::from(tl.load))
                .into_iter()
                .flat_map(|c| fonts.map(|f| (c.clone(), f)))
                .find(|(c, font)| fits(c, font))
        })
        .collect();
    // The legend is measured in the body font (`measure`).
    raw.set_font(scene_fonts(width).body);
    // The legend names the counts only where some square shows one.
    let counts_drawn = counts.iter().any(Option::is_some);
    let legend = scene_legend(th, loops, workers, counts_drawn);
    let labels: Vec<&str> = legend.iter().map(|(_, l)| *l).collect();
    let lay = scene_layout(width, &labels, &measure, dep.len(), outcomes.len());
    let Some(ctx) = context(canvas, width, lay.height, dpr).map(Pen::new) else {
        return;
    };
    let f = lay.fonts;

    // The line.
    heading(
        &ctx,
        th,
        &lay,
        &lay.line,
        &format!("Line: {}", fmt_count(snap.line as f64)),
        "waiting for a teller",
    );
    let (lx, ly) = (lay.line.x, lay.line.y + lay.content);
    dot_grid(
        &ctx,
        th,
        snap.line,
        (lx, ly),
        lay.line_grid,
        lay.step,
        th.ink,
        f.strong,
    );

    // The tellers.
    let t = lay.tellers;
    heading(
        &ctx,
        th,
        &lay,
        &t,
        &tellers_title(&raw, snap, f.head, t.w),
        &tellers_detail(snap),
    );
    let gap = TELLER_GAP;
    // Placed above, in the layout without the legend: the same area
    // (the_tellers_area_does_not_depend_on_the_legend).
    let top = t.y + lay.content;
    for (i, (tl, &(col, row))) in snap.tellers.iter().zip(&cells).enumerate() {
        let x = t.x + col as f64 * (size + gap);
        let y = top + row as f64 * (size + gap);
        square(&ctx, x, y, size, state_color(tl.state, th));
        if tl.kind == TellerKind::Worker {
            ctx.set_stroke_style_str(th.ink);
            ctx.set_line_width(2.0);
            ctx.stroke_rect(x + 1.0, y + 1.0, size - 2.0, size - 2.0);
        }
        if let Some(Some((count, font))) = counts.get(i) {
            let ink = if tl.state == TellerState::Idle {
                th.ink
            } else {
                "#1b2430"
            };
            text(
                &ctx,
                count,
                x + size / 2.0,
                y + size / 2.0,
                font,
                ink,
                "center",
            );
        }
    }
    let hidden = snap.tellers_alive.saturating_sub(cells.len() as u64);
    if hidden > 0 {
        let more = format!(
            "+{} more {}",
            fmt_count(hidden as f64),
            tellers_sim::text::noun(hidden, "teller", "tellers")
        );
        text(&ctx, &more, t.x, top + t.h + 12.0, f.strong, th.ink, "left");
    }

    // The cores.
    let c = lay.cores;
    let busy = cores_heading(snap.busy_cores, snap.cores, CORES_SHOWN);
    text(&ctx, &busy, c.x, c.y + 12.0, f.head, th.ink, "left");
    let shown = snap.cores.min(CORES_SHOWN);
    let cs = (c.w / f64::from(shown.max(8)) - 3.0).clamp(4.0, c.h);
    for i in 0..shown {
        let color = if i < snap.busy_cores.min(shown) {
            palette::ORANGE
        } else {
            th.empty
        };
        square(&ctx, c.x + f64::from(i) * (cs + 3.0), c.y + 28.0, cs, color);
    }

    // The back office.
    let b = lay.back;
    heading(
        &ctx,
        th,
        &lay,
        &b,
        &format!("Back office: {}", fmt_count(snap.waiting as f64)),
        "waiting off the CPU",
    );
    let at = (b.x, b.y + lay.content);
    dot_grid(
        &ctx,
        th,
        snap.waiting,
        at,
        lay.back_grid,
        lay.step,
        palette::SKY,
        f.strong,
    );

    // The dependency's limits: how much of each is in use, and its line.
    // Wide: the detail follows its heading on one line; narrow: under it.
    for (i, (head, detail)) in dep.iter().enumerate() {
        let y = lay.dep.y + i as f64 * lay.dep_row;
        text(&ctx, head, lay.dep.x, y + 12.0, f.head, th.ink, "left");
        let (dx, dy) = if lay.dep_row == DEP_ROW {
            raw.set_font(f.head);
            let w = raw.measure_text(head).map_or(0.0, |m| m.width());
            (lay.dep.x + w + 10.0, y + 12.0)
        } else {
            (lay.dep.x, y + 32.0)
        };
        text(&ctx, detail, dx, dy, f.body, th.muted, "left");
    }

    // Outcomes.
    let o = lay.outcomes;
    for (i, (outcome, n)) in outcomes.iter().enumerate() {
        let label = outcome.label();
        // The breaker's blocked tries never reached the server: grey.
        let color = match outcome {
            Outcome::Finished => palette::GREEN,
            Outcome::Refused => palette::VERMILLION,
            Outcome::TimedOut => palette::PURPLE,
            Outcome::Blocked => th.muted,
        };
        let y = o.y + i as f64 * lay.outcome_row;
        square(&ctx, o.x, y - 8.0, 16.0, color);
        text(&ctx, label, o.x + 24.0, y, f.body, th.ink, "left");
        let count = fmt_count(*n as f64);
        text(&ctx, &count, o.x + o.w, y, f.number, th.ink, "right");
    }

    // Legend.
    for ((key, _), e) in legend.iter().zip(&lay.legend) {
        let (x, y) = (e.x, e.y - 8.0);
        match key {
            Key::Fill(color) => square(&ctx, x, y, 16.0, color),
            Key::Outline => {
                square(&ctx, x, y, 16.0, th.empty);
                ctx.set_stroke_style_str(th.ink);
                ctx.set_line_width(2.0);
                ctx.stroke_rect(x + 1.0, y + 1.0, 14.0, 14.0);
            }
            Key::Count => {
                square(&ctx, x, y, 16.0, th.empty);
                text(
                    &ctx,
                    "3",
                    x + 8.0,
                    e.y,
                    "bold 11px system-ui, sans-serif",
                    th.ink,
                    "center",
                );
            }
        }
        for (i, line) in e.lines.iter().enumerate() {
            let y = e.y + i as f64 * lay.legend_row;
            text(&ctx, line, e.x + 22.0, y, f.body, th.ink, "left");
        }
    }
}

/// A series colour as drawn on this theme: blue lightens on a dark page.
fn col(c: &'static str, th: &Theme) -> RGBColor {
    rgb(if c == palette::BLUE { th.blue } else { c })
}

/// A font for plotters, `px` CSS pixels at pixel ratio `dpr`.
fn font(px: f64, dpr: f64, color: RGBColor) -> TextStyle<'static> {
    ("system-ui, sans-serif", px * dpr)
        .into_font()
        .color(&color)
}

/// Draws `chart` on `canvas` for how it fits the page (see [`Fit`]), with
/// plotters: the legend in rows on top, the y-axis label under it, then the
/// plot. Returns the layout it used, in the drawing's units (a CSS pixel
/// times the zoom; the canvas is that tall).
pub fn draw_chart(
    canvas: &HtmlCanvasElement,
    chart: &Chart,
    th: &Theme,
    fit: Fit,
    tall: bool,
    beside: Option<(&Chart, &dyn Fn() -> bool)>,
) -> Option<ChartLayout> {
    if fit.width < 1.0 {
        return None;
    }
    let (width, dpr) = fit.units();
    let ctx = context2d(canvas)?;
    // Measure in units, before the canvas is sized in device pixels.
    let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    let measure = |s: &str, px: f64| {
        ctx.set_font(&format!("{px}px system-ui, sans-serif"));
        ctx.measure_text(s)
            .map_or(s.len() as f64 * px * 0.6, |m| m.width())
    };
    let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
    let longest_tick = if chart.y_log {
        log_tick_label(chart.y.1, f64::INFINITY, chart.y.1)
    } else {
        [chart.y.0, chart.y.1, chart.y.1 / 3.0]
            .map(|v| linear_tick_label(v, false, chart.y.1))
            .into_iter()
            .max_by_key(String::len)
            .unwrap_or_default()
    };
    let y_axis_w = measure(&longest_tick, type_px::TICK).max(measure("0.00", type_px::TICK)) + 16.0;
    let legend_w = |s: &str| measure(s, type_px::LEGEND);
    // As tall a legend as the chart beside it, so their plots line up (a
    // legend wrapped to three lines put one plot 45 px below its
    // neighbour). Whether that chart is on this row is asked only when its
    // legend is the taller: the answer reads the page's layout.
    // (Laid out here only beside another chart: the curve has none.)
    let legend_h_min = beside.map_or(0.0, |(other, same_row)| {
        let theirs: Vec<&str> = other.series.iter().map(|s| s.label.as_str()).collect();
        let h = legend_height(width, &theirs, &legend_w);
        if h > legend_height(width, &labels, &legend_w) && same_row() {
            h
        } else {
            0.0
        }
    });
    let lay = chart_layout(
        width,
        &labels,
        &chart.x_label,
        &legend_w,
        y_axis_w,
        tall,
        legend_h_min,
    );
    size_canvas(canvas, &ctx, width, lay.height, dpr);

    let px = |v: f64| (v * dpr).round() as i32;
    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    let ink = rgb(th.ink);
    // Legend: each series' mark beside its label.
    let legend_font = font(type_px::LEGEND, dpr, ink).pos(Pos::new(HPos::Left, VPos::Center));
    for (s, e) in chart.series.iter().zip(&lay.legend) {
        legend_mark(&root, s, th, (px(e.x), px(e.y)), dpr);
        for (i, line) in e.lines.iter().enumerate() {
            let y = e.y + i as f64 * LEGEND_ROW;
            let at = (px(e.x + LEGEND_MARK), px(y));
            let _ = root.draw(&Text::new(line.clone(), at, legend_font.clone()));
        }
    }
    let axis_font = font(type_px::AXIS, dpr, ink);
    let _ = root.draw(&Text::new(
        chart.y_label.clone(),
        (px(SIDE_PX), px(lay.y_label_y)),
        axis_font.pos(Pos::new(HPos::Left, VPos::Center)),
    ));
    // The x-axis label, under the ticks, across the whole width if need be.
    let centred = axis_font.pos(Pos::new(HPos::Center, VPos::Center));
    for (i, line) in lay.x_label.iter().enumerate() {
        let y = lay.x_label_y + i as f64 * X_LABEL_ROW;
        let _ = root.draw(&Text::new(
            line.clone(),
            (px(width / 2.0), px(y)),
            centred.clone(),
        ));
    }

    let below = lay.height - lay.plot_top - lay.plot_h - X_TICKS_PX;
    let plot = root.margin(px(lay.plot_top), px(below), px(SIDE_PX), px(SIDE_PX + 8.0));
    let mut builder = ChartBuilder::on(&plot);
    builder
        .x_label_area_size(px(X_TICKS_PX))
        .y_label_area_size(px(y_axis_w));
    let (x0, x1) = chart.x;
    let (y0, y1) = chart.y;
    let decades = (y1 / y0).log10().max(1.0);
    let px_per_decade = lay.plot_h / decades;
    let (y_axis, lines) = if chart.y_log {
        // Every 1–9 line when they are far enough apart (log paper).
        let ticks = log_key_points(y0, y1, px_per_decade >= 60.0);
        let lines = ticks.len();
        (YAxis::Log((y0..y1).log_scale().into(), ticks), lines)
    } else {
        (YAxis::Linear((y0..y1).into()), lay.y_ticks)
    };
    let log = chart.y_log;
    let label = move |v: &f64| {
        if log {
            log_tick_label(*v, px_per_decade, y1)
        } else {
            linear_tick_label(*v, false, y1)
        }
    };
    let mut cc = builder.build_cartesian_2d(x0..x1, y_axis).ok()?;
    paint(&mut cc, &ctx, chart, th, &lay, dpr, lines, &label);
    Some(lay)
}

/// A y axis, linear or logarithmic, as one type: plotters' mesh and series
/// code is generic over the axis, and one type compiles it once (smaller wasm).
/// A log axis carries its own ticks ([`log_key_points`]): plotters' start
/// at the first power of ten, and an axis from 20 had none below 100.
enum YAxis {
    Linear(RangedCoordf64),
    Log(LogCoord<f64>, Vec<f64>),
}

impl Ranged for YAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        match self {
            YAxis::Linear(a) => a.map(v, limit),
            YAxis::Log(a, _) => a.map(v, limit),
        }
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        match self {
            YAxis::Linear(a) => a.key_points(hint),
            YAxis::Log(_, ticks) => ticks.clone(),
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        match self {
            YAxis::Linear(a) => a.range(),
            YAxis::Log(a, _) => a.range(),
        }
    }
}

/// The mesh, the axes and the series of `chart` on `cc`.
#[allow(clippy::too_many_arguments)]
fn paint(
    cc: &mut ChartContext<'_, CanvasBackend, Cartesian2d<RangedCoordf64, YAxis>>,
    ctx: &CanvasRenderingContext2d,
    chart: &Chart,
    th: &Theme,
    lay: &ChartLayout,
    dpr: f64,
    y_lines: usize,
    y_label: &dyn Fn(&f64) -> String,
) {
    let px = |v: f64| (v * dpr).round() as u32;
    let x_label = |v: &f64| linear_tick_label(*v, chart.x_percent, chart.x.1);
    let muted = rgb(th.muted);
    let _ = cc
        .configure_mesh()
        .x_labels(lay.x_ticks)
        .y_labels(y_lines)
        .x_label_formatter(&x_label)
        .y_label_formatter(y_label)
        .max_light_lines(0)
        .bold_line_style(rgb(th.grid).stroke_width(px(1.0)))
        .axis_style(muted.stroke_width(px(1.0)))
        .set_all_tick_mark_size(px(4.0))
        .label_style(font(type_px::TICK, dpr, muted))
        .draw();

    // Lines are clipped to the plot: theory runs on past the top of the
    // axis. Marks are drawn after, whole, where their point lies inside the
    // axes: a ring at 0.6 % busy was half hidden behind the y axis.
    let (xs, ys) = cc.plotting_area().get_pixel_range();
    ctx.save();
    ctx.begin_path();
    ctx.rect(
        f64::from(xs.start),
        f64::from(ys.start),
        f64::from(xs.end - xs.start),
        f64::from(ys.end - ys.start),
    );
    ctx.clip();
    let (y0, y1) = chart.y;
    let line_width = px(2.5);
    for s in chart.series.iter().filter(|s| s.mark.is_line()) {
        // Lines are cut at the axis's ends (see `clip_to_range`).
        let parts = clip_to_range(&s.points, (y0, y1), chart.y_log);
        let color = col(s.color, th);
        let line = color.stroke_width(line_width);
        let _ = parts
            .into_iter()
            .try_for_each(|part| match (s.mark, &part[..]) {
                // A part of one point (a value between two gaps) has no
                // length to draw: a dot, so it is not lost.
                (_, [p]) => cc
                    .draw_series(std::iter::once(Circle::new(*p, line_width, color.filled())))
                    .map(|_| ()),
                (Mark::Dashed, _) => cc
                    .draw_series(DashedLineSeries::new(part, px(7.0), px(5.0), line))
                    .map(|_| ()),
                _ => cc.draw_series(LineSeries::new(part, line)).map(|_| ()),
            });
    }
    ctx.restore();
    for s in chart.series.iter().filter(|s| !s.mark.is_line()) {
        let pts = s
            .points
            .iter()
            .copied()
            .filter(|&p| inside_axes(p, chart.x, chart.y, chart.y_log));
        let color = col(s.color, th);
        let _ = match s.mark {
            Mark::Squares => {
                let r = px(5.0) as i32;
                cc.draw_series(pts.map(|p| {
                    EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], color.filled())
                }))
                .map(|_| ())
            }
            Mark::Ring => {
                let ring = color.stroke_width(px(3.0));
                cc.draw_series(pts.map(|p| Circle::new(p, px(10.0), ring)))
                    .map(|_| ())
            }
            _ => cc
                .draw_series(pts.map(|p| Circle::new(p, px(5.0), color.filled())))
                .map(|_| ()),
        };
    }
}

/// A series' mark in the legend, its left end at `(x, y)` (device px).
fn legend_mark(
    root: &DrawingArea<CanvasBackend, plotters::coord::Shift>,
    s: &Series,
    th: &Theme,
    (x, y): (i32, i32),
    dpr: f64,
) {
    let px = |v: f64| (v * dpr).round() as i32;
    let color = col(s.color, th);
    let line = color.stroke_width(px(2.5) as u32);
    let _ = match s.mark {
        Mark::Line => root.draw(&PathElement::new(vec![(x, y), (x + px(20.0), y)], line)),
        Mark::Dashed => root.draw(&plotters::element::DashedPathElement::new(
            vec![(x, y), (x + px(20.0), y)],
            px(7.0),
            px(5.0),
            line,
        )),
        Mark::Dots => root.draw(&Circle::new((x + px(10.0), y), px(5.0), color.filled())),
        Mark::Squares => root.draw(&Rectangle::new(
            [(x + px(5.0), y - px(5.0)), (x + px(15.0), y + px(5.0))],
            color.filled(),
        )),
        Mark::Ring => root.draw(&Circle::new(
            (x + px(10.0), y),
            px(7.0),
            color.stroke_width(px(3.0) as u32),
        )),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{breaker_line, dep_lines};
    use tellers_sim::BreakerState;

    #[test]
    fn the_cores_heading_is_one_short_line() {
        assert_eq!(cores_heading(3, 4, 32), "Cores: 3 of 4 busy");
        let many = cores_heading(1024, 1024, 32);
        assert_eq!(many, "Cores: 1,024 of 1,024 busy (32 drawn)");
        // At most about 40 characters of 17 px bold: it ends before the
        // back office column to its right.
        assert!(many.chars().count() <= 40);
    }

    #[test]
    fn the_teller_grid_fits_every_teller_it_can() {
        for n in [1, 4, 20, 40, 100, 256] {
            let (size, cols, fit) = teller_grid(n, 380.0, 220.0, 4.0);
            assert!(fit >= n, "{n} tellers: only {fit} fit");
            assert!(cols as f64 * (size + 4.0) <= 384.0);
            assert!((10.0..=64.0).contains(&size));
        }
        let (size, _, fit) = teller_grid(10_000, 380.0, 220.0, 4.0);
        assert_eq!(size, 10.0);
        assert!(fit < 10_000, "the rest is summed up as +N more");
    }

    /// A loop with its own pool stands above its workers where they fit
    /// (lesson 12's four loops with a worker each wrapped the first worker
    /// into the loops' row, so whose worker was whose could not be seen);
    /// otherwise, and for a shared pool, tiles go in reading order.
    #[test]
    fn each_loop_stands_above_its_own_workers_where_they_fit() {
        // 4 loops, 1 worker each, in the 360 x 240 px of a 1366 px scene.
        let p = teller_places(8, 4, 1, 360.0, 240.0, 4.0);
        assert_eq!(
            p.cells,
            [
                (0, 0),
                (1, 0),
                (2, 0),
                (3, 0),
                (0, 1),
                (1, 1),
                (2, 1),
                (3, 1)
            ]
        );
        assert_eq!(p.size, 64.0);
        // 3 loops of 2 workers: loop 1's workers are under loop 1.
        let p = teller_places(9, 3, 2, 360.0, 240.0, 4.0);
        assert_eq!(&p.cells[5..7], [(1, 1), (1, 2)]);
        // Every tile inside the area.
        for (loops, per) in [(4, 1), (3, 2), (8, 8), (16, 1), (2, 10)] {
            let n = loops * (1 + per);
            let p = teller_places(n, loops, per, 360.0, 240.0, 4.0);
            assert_eq!(p.cells.len(), n, "{loops} x {per}");
            for &(c, r) in &p.cells {
                assert!(
                    c as f64 * (p.size + 4.0) + p.size <= 360.0,
                    "{loops} x {per}"
                );
                assert!(
                    r as f64 * (p.size + 4.0) + p.size <= 240.0,
                    "{loops} x {per}"
                );
            }
        }
        // One loop's pool is all the workers (and 40 could not stand as a
        // column of 41): in order, as a shared pool and threads always are.
        for (n, loops, per) in [(41, 1, 40), (3, 1, 2), (6, 1, 0), (20, 0, 0)] {
            let p = teller_places(n, loops, per, 360.0, 240.0, 4.0);
            let (size, cols, _) = teller_grid(n, 360.0, 240.0, 4.0);
            assert_eq!(p.size, size);
            assert_eq!(p.cells[n - 1], ((n - 1) % cols, (n - 1) / cols));
        }
        // A list that is not every loop and worker (more than a snapshot
        // lists) goes in order too.
        let p = teller_places(256, 64, 9, 360.0, 240.0, 4.0);
        assert_eq!(p.cells[1], (1, 0));
    }

    /// The legend explains the outline and the count only where the
    /// scene draws them.
    #[test]
    fn the_legend_names_workers_and_loop_counts_only_where_drawn() {
        let th = Theme::new(false);
        let labels = |loops: bool, workers: bool, counts: bool| -> Vec<&str> {
            scene_legend(&th, loops, workers, counts)
                .iter()
                .map(|(_, l)| *l)
                .collect()
        };
        assert_eq!(labels(false, false, true).len(), 5);
        let loops = labels(true, false, true);
        assert_eq!(loops.last(), Some(&"event loop: requests it holds"));
        assert_eq!(labels(true, false, false).len(), 5);
        let both = labels(true, true, true);
        assert_eq!(
            both[5..],
            ["event loop: requests it holds", "worker thread"]
        );
    }

    /// A loop holds many requests when the line grows: its count is
    /// written short where the full number does not fit its square
    /// ("2,413" ran into its neighbours' counts with 40 loops on a laptop).
    #[test]
    fn a_loops_count_has_a_short_form_from_a_thousand() {
        let forms = |n: u64| count_forms(n);
        assert_eq!(forms(10), ["10"]);
        assert_eq!(forms(999), ["999"]);
        assert_eq!(forms(1000), ["1,000", "1k"]);
        assert_eq!(forms(2413), ["2,413", "2.4k"]);
        assert_eq!(forms(9949), ["9,949", "9.9k"]);
        assert_eq!(forms(9950), ["9,950", "10k"]);
        assert_eq!(forms(24_130), ["24,130", "24k"]);
        assert_eq!(forms(999_499), ["999,499", "999k"]);
        assert_eq!(forms(999_500), ["999,500", "1M"]);
        assert_eq!(forms(2_400_000), ["2,400,000", "2.4M"]);
    }

    #[test]
    fn idle_squares_stand_out_from_the_panel_on_a_projector() {
        // WCAG's relative luminance and contrast ratio.
        let lum = |hex: &str| {
            let RGBColor(r, g, b) = rgb(hex);
            let f = |c: u8| {
                let c = f64::from(c) / 255.0;
                if c <= 0.039_28 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
        };
        let ratio = |a: &str, b: &str| {
            let (x, y) = (lum(a), lum(b));
            (x.max(y) + 0.05) / (x.min(y) + 0.05)
        };
        // The panels' --surface in assets/style.css, light and dark.
        for (dark, panel) in [(false, "#ffffff"), (true, "#182029")] {
            let th = Theme::new(dark);
            let idle = ratio(th.empty, panel);
            assert!(
                idle >= 3.0,
                "dark {dark}: idle {idle:.2}:1 against the panel"
            );
            // Told from the busy states by lightness, not by hue alone.
            for busy in [palette::ORANGE, palette::SKY, palette::YELLOW] {
                let apart = ratio(th.empty, busy);
                assert!(apart >= 1.45, "dark {dark}: idle and {busy} {apart:.2}:1");
            }
            // A loop's count, bold, on an idle square.
            let count = ratio(th.ink, th.empty);
            assert!(count >= 4.0, "dark {dark}: a count {count:.2}:1");
        }
    }

    #[test]
    fn colours_parse_from_hex() {
        assert_eq!(rgb("#E69F00"), RGBColor(0xE6, 0x9F, 0x00));
        assert_eq!(rgb("#0072b2"), RGBColor(0x00, 0x72, 0xB2));
        assert_eq!(rgb("E69F00"), RGBColor(0, 0, 0));
        assert_eq!(rgb("#E69F"), RGBColor(0, 0, 0));
    }

    fn px_of(font: &str) -> f64 {
        let n = font.split("px").next().unwrap();
        n.rsplit(' ').next().unwrap().parse().unwrap()
    }

    const LEGEND: [&str; 5] = [
        "on a core",
        "wants a core",
        "holds a request that waits",
        "idle",
        "request in line",
    ];

    /// About what the body font measures: 0.6 em a letter (wide, like DejaVu Sans).
    fn measure_at(width: f64) -> impl Fn(&str) -> f64 {
        let px = scene_fonts(width).px[1];
        move |s: &str| s.chars().count() as f64 * px * 0.6
    }

    #[test]
    fn the_scene_fits_every_width_from_a_small_phone_up() {
        let widths = [
            240.0, 300.0, 342.0, 390.0, 500.0, 699.0, 700.0, 710.0, 720.0, 880.0, 960.0, 1400.0,
        ];
        // With no part under the sections up to three (connections, slots,
        // the circuit breaker), and with the breaker's fourth outcome row.
        let cases = widths
            .iter()
            .flat_map(|&w| (0..=3).flat_map(move |d| [3, 4].map(move |r| (w, d, r))));
        for (width, dep, rows) in cases {
            let m = measure_at(width);
            let lay = scene_layout(width, &LEGEND, &m, dep, rows);
            let f = lay.fonts;
            for (font, px) in [f.head, f.body, f.strong, f.number].iter().zip(f.px) {
                assert_eq!(px_of(font), px);
                assert!(px >= 12.0, "{width}: {font} is under 12 px");
            }
            assert_eq!(lay.dep.h, dep as f64 * lay.dep_row);
            let areas = [
                lay.line,
                lay.tellers,
                lay.cores,
                lay.back,
                lay.dep,
                lay.outcomes,
            ];
            for a in areas {
                assert!(
                    a.x >= 0.0 && a.x + a.w <= width,
                    "{width}: {a:?} leaves the canvas"
                );
                assert!(
                    a.y >= 0.0 && a.y + a.h < lay.height,
                    "{width}: {a:?} below the canvas"
                );
            }
            // Dot grids stay inside their sections.
            assert!(lay.line_grid.0 as f64 * lay.step <= lay.line.w);
            assert!(lay.back_grid.0 as f64 * lay.step <= lay.back.w);
            // Sections do not overlap (heading and content included).
            let boxes: Vec<Area> = [lay.line, lay.tellers, lay.back]
                .iter()
                .map(|a| Area {
                    h: a.h + lay.content + 20.0,
                    ..*a
                })
                .chain([
                    Area {
                        y: lay.cores.y,
                        h: lay.cores.h + 28.0,
                        ..lay.cores
                    },
                    lay.dep,
                    // The outcome rows, from the top of the first square
                    // to the bottom of the last.
                    Area {
                        y: lay.outcomes.y - 8.0,
                        h: (rows - 1) as f64 * lay.outcome_row + 16.0,
                        ..lay.outcomes
                    },
                ])
                .collect();
            let boxes: Vec<Area> = boxes.into_iter().filter(|a| a.h > 0.0).collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    let apart = a.x + a.w <= b.x
                        || b.x + b.w <= a.x
                        || a.y + a.h <= b.y
                        || b.y + b.h <= a.y;
                    assert!(apart, "{width}: {a:?} overlaps {b:?}");
                }
            }
            // The legend wraps inside the canvas, under everything else.
            for e in &lay.legend {
                let w = e.lines.iter().map(|l| m(l)).fold(0.0, f64::max);
                assert!(e.x + w + 22.0 <= width - 8.0, "{width}: {e:?} runs off");
                assert!(e.y > lay.outcomes.y + lay.outcomes.h - lay.outcome_row);
                assert!(
                    e.y - 8.0 > lay.dep.y + lay.dep.h,
                    "{width}: the legend under the dependency"
                );
                let last = e.y + (e.lines.len() - 1) as f64 * lay.legend_row;
                assert!(last + 8.0 <= lay.height, "{width}: {e:?} below the canvas");
            }
        }
    }

    #[test]
    fn larger_type_keeps_a_wide_scene_in_columns() {
        // Presenter mode at 720p: the scene gets about 740 px at 1.1× type.
        let z = scene_zoom(Fit {
            width: 740.0,
            zoom: 1.1,
        });
        assert!(z > 1.0 && 740.0 / z >= SCENE_WIDE_FROM, "{z}");
        // Whole device pixels at that zoom still give the three columns.
        for width in [700.0, 700.4, 720.0, 720.4, 744.0, 744.6, 800.0] {
            let z = scene_zoom(Fit { width, zoom: 1.1 });
            let px = width.round();
            assert!(px / z >= SCENE_WIDE_FROM, "{width}: {z}");
        }
        // Room to spare: the type follows the page in full.
        let wide = Fit {
            width: 1200.0,
            zoom: 1.35,
        };
        assert_eq!(scene_zoom(wide), 1.35);
        // A narrow canvas stacks anyway: the type follows the page.
        let phone = Fit {
            width: 360.0,
            zoom: 1.25,
        };
        assert_eq!(scene_zoom(phone), 1.25);
    }

    #[test]
    fn the_dependencys_lines_fit_their_column() {
        // A pool of 100 with 9,999 calls in line and 100 slots: the longest
        // lines a lesson's scenario gives, at 0.6 em a letter.
        let dep = tellers_sim::DepView {
            pool: Some(100),
            conns_busy: 100,
            conn_line: 9_999,
            slots: Some(100),
            slots_busy: 100,
            slot_line: 9_999,
        };
        // And the circuit breaker's longest lines, opening after up to
        // 1,000 failures in a row, or open up to 9.9 s more.
        let breaker = |state| tellers_sim::BreakerView {
            state,
            after: 1_000,
            broken: 0,
        };
        let mut lines = dep_lines(&dep);
        for state in [
            BreakerState::Closed { failures: 999 },
            BreakerState::Open { left_s: 9.9 },
            BreakerState::Open { left_s: 0.0 },
            BreakerState::HalfOpen,
        ] {
            lines.push(breaker_line(&breaker(state)));
        }
        for width in [300.0, 390.0, 699.0, 700.0, 720.0, 960.0, 1400.0] {
            let lay = scene_layout(width, &LEGEND, &measure_at(width), 3, 4);
            let f = lay.fonts;
            let em = |s: &str, px: f64| s.chars().count() as f64 * px * 0.6;
            for (head, detail) in &lines {
                let w = if lay.dep_row == DEP_ROW {
                    em(head, f.px[0]) + 10.0 + em(detail, f.px[1])
                } else {
                    em(head, f.px[0]).max(em(detail, f.px[1]))
                };
                assert!(w <= lay.dep.w, "{width}: {head} {detail}");
            }
        }
    }

    /// The scene places its tellers (and sizes the loops' counts) in the
    /// layout without a legend, before the legend is chosen.
    #[test]
    fn the_tellers_area_does_not_depend_on_the_legend() {
        for width in [300.0, 390.0, 699.0, 700.0, 960.0, 1400.0] {
            for deps in [0, 2] {
                let bare = scene_layout(width, &[], &measure_at(width), deps, 4).tellers;
                let full = scene_layout(width, &LEGEND, &measure_at(width), deps, 4).tellers;
                assert_eq!((bare.w, bare.h), (full.w, full.h), "{width} px");
            }
        }
    }

    #[test]
    fn a_phone_gets_the_stacked_scene_and_a_desktop_three_columns() {
        let phone = scene_layout(342.0, &LEGEND, &measure_at(342.0), 0, 3);
        assert_eq!(phone.line.x, phone.tellers.x);
        assert!(phone.tellers.y > phone.line.y && phone.back.y > phone.cores.y);
        let desk = scene_layout(960.0, &LEGEND, &measure_at(960.0), 0, 3);
        assert!(desk.line.x < desk.tellers.x && desk.tellers.x < desk.back.x);
        assert_eq!(desk.line.y, desk.back.y);
        // The desktop layout is the one the scene always had at 960 px.
        assert_eq!(desk.tellers.w, 380.0);
        assert_eq!(desk.height, 402.0);
        // A lesson's column on a laptop gets the columns, and the side
        // columns' longest lines fit them (at 0.55 em a letter, about what
        // system-ui measures).
        let lesson = scene_layout(710.0, &LEGEND, &measure_at(710.0), 0, 3);
        assert!(lesson.line.x < lesson.tellers.x && lesson.line.y == lesson.back.y);
        let narrowest = scene_layout(SCENE_WIDE_FROM, &LEGEND, &measure_at(700.0), 0, 3);
        let f = narrowest.fonts;
        let em = |s: &str, px: f64| s.chars().count() as f64 * px * 0.55;
        for (line, px) in [
            ("Line: 99,999", f.px[0]),
            ("waiting for a teller", f.px[1]),
            ("Back office: 99,999", f.px[0]),
            ("waiting off the CPU", f.px[1]),
        ] {
            assert!(em(line, px) <= narrowest.line.w, "{line}");
        }
        // An outcome row: square, label, and its count at the right.
        assert!(
            24.0 + em("Timed out", f.px[1]) + 8.0 + em("999,999", f.px[3]) <= narrowest.outcomes.w
        );
        assert!(
            24.0 + em("Blocked", f.px[1]) + 8.0 + em("999,999", f.px[3]) <= narrowest.outcomes.w
        );
    }
}
