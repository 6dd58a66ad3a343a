//! Drawing on a 2D canvas: the tellers scene and the charts.
//!
//! Colours are the Okabe–Ito palette, which stays distinct for the common
//! kinds of colour blindness; every colour also has a label in a legend.
//! The layout decisions (what fits, what is summed up as "+N more") are in
//! plain arithmetic here; the numbers come from [`tellers_sim::Snapshot`]
//! and [`crate::playground`].

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::charts::{palette, Chart, Mark, Series};
use crate::format::{fmt_count, fmt_ticks, linear_ticks, log_ticks};
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
    /// Empty slots and idle tellers.
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
                empty: "#3a4756",
                blue: palette::SKY,
            }
        } else {
            Theme {
                ink: "#1b2430",
                muted: "#4a5565",
                grid: "#dde2dd",
                empty: "#c4ccc6",
                blue: palette::BLUE,
            }
        }
    }
}

/// The 2D context of `canvas`, sized for the screen's pixel ratio, with
/// user space in CSS pixels of a `w` × `h` drawing.
pub fn context(canvas: &HtmlCanvasElement, w: f64, h: f64) -> Option<CanvasRenderingContext2d> {
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
    if canvas.width() != pw {
        canvas.set_width(pw);
    }
    if canvas.height() != ph {
        canvas.set_height(ph);
    }
    let ctx = canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()?;
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, w, h);
    Some(ctx)
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

    /// Width of `s` in `font`, CSS pixels.
    fn width(&self, s: &str, font: &str) -> Option<f64> {
        self.ctx.set_font(font);
        self.ctx.measure_text(s).ok().map(|m| m.width())
    }
}

impl Drop for Pen {
    fn drop(&mut self) {
        let mut texts = std::mem::take(self.texts.get_mut());
        texts.sort_by_key(|t| (t.font, t.color, t.align));
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

fn dot(ctx: &CanvasRenderingContext2d, x: f64, y: f64, r: f64, color: &str) {
    ctx.begin_path();
    let _ = ctx.arc(x, y, r, 0.0, std::f64::consts::TAU);
    ctx.set_fill_style_str(color);
    ctx.fill();
}

fn square(ctx: &CanvasRenderingContext2d, x: f64, y: f64, size: f64, color: &str) {
    ctx.set_fill_style_str(color);
    ctx.fill_rect(x, y, size, size);
}

fn dash(ctx: &CanvasRenderingContext2d, on: bool) {
    let pattern = if on {
        js_sys::Array::of2(&JsValue::from(6.0), &JsValue::from(4.0))
    } else {
        js_sys::Array::new()
    };
    let _ = ctx.set_line_dash(&pattern);
}

/// Draws up to `cols × rows` dots in a grid at (`x`, `y`), then "+N more".
#[allow(clippy::too_many_arguments)]
fn dot_grid(
    ctx: &Pen,
    th: &Theme,
    n: u64,
    x: f64,
    y: f64,
    cols: u64,
    rows: u64,
    step: f64,
    color: &str,
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
        let y_more = y + rows as f64 * step + 14.0;
        text(
            ctx,
            &format!("+{} more", fmt_count((n - shown) as f64)),
            x,
            y_more,
            "bold 15px system-ui, sans-serif",
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

fn state_color(state: TellerState, th: &Theme) -> &'static str {
    match state {
        TellerState::OnCore => palette::ORANGE,
        TellerState::Ready => palette::YELLOW,
        TellerState::Blocked => palette::SKY,
        TellerState::Idle => th.empty,
    }
}

/// Fonts of the tellers scene: section headings and plain text.
const HEAD_FONT: &str = "bold 17px system-ui, sans-serif";
const BODY_FONT: &str = "15px system-ui, sans-serif";

/// A section's heading at (`x`, top of the scene) with a muted line under it.
fn heading(ctx: &Pen, th: &Theme, x: f64, title: &str, subtitle: &str) {
    text(ctx, title, x, 22.0, HEAD_FONT, th.ink, "left");
    text(ctx, subtitle, x, 44.0, BODY_FONT, th.muted, "left");
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

/// Logical size of the tellers scene, CSS pixels.
pub const SCENE: (f64, f64) = (960.0, 400.0);

/// The tellers scene: the line, the tellers and the cores they hold, the
/// back office, what became of finished requests, and a legend.
pub fn draw_tellers(canvas: &HtmlCanvasElement, snap: &Snapshot, th: &Theme) {
    let (w, h) = SCENE;
    let Some(ctx) = context(canvas, w, h).map(Pen::new) else {
        return;
    };

    // The line.
    heading(
        &ctx,
        th,
        16.0,
        &format!("Line: {}", fmt_count(snap.line as f64)),
        "waiting for a teller",
    );
    dot_grid(&ctx, th, snap.line, 16.0, 60.0, 12, 10, 20.0, th.ink);

    // The tellers.
    let x0 = 290.0;
    let area_w = 380.0;
    let kind = snap.tellers.first().map(|t| t.kind);
    let noun = match kind {
        Some(TellerKind::Loop) if snap.tellers.iter().any(|t| t.kind == TellerKind::Worker) => {
            "loops and workers"
        }
        Some(TellerKind::Loop) if snap.tellers_alive == 1 => "event loop",
        Some(TellerKind::Loop) => "event loops",
        _ if snap.tellers_alive == 1 => "thread",
        _ => "threads",
    };
    heading(
        &ctx,
        th,
        x0,
        &format!("Tellers: {} {noun}", fmt_count(snap.tellers_alive as f64)),
        &format!("{} taken", fmt_count(snap.tellers_busy as f64)),
    );
    let n = snap.tellers.len().max(1) as f64;
    let gap = 4.0;
    let area_h = 208.0;
    let (size, cols, fit) = teller_grid(n as usize, area_w, area_h, gap);
    for (i, t) in snap.tellers.iter().take(fit).enumerate() {
        let x = x0 + (i % cols) as f64 * (size + gap);
        let y = 60.0 + (i / cols) as f64 * (size + gap);
        square(&ctx, x, y, size, state_color(t.state, th));
        if t.kind == TellerKind::Worker {
            ctx.set_stroke_style_str(th.ink);
            ctx.set_line_width(2.0);
            ctx.stroke_rect(x + 1.0, y + 1.0, size - 2.0, size - 2.0);
        }
        if t.kind == TellerKind::Loop && size >= 30.0 {
            let ink = if t.state == TellerState::Idle {
                th.ink
            } else {
                "#1b2430"
            };
            text(
                &ctx,
                &fmt_count(t.load as f64),
                x + size / 2.0,
                y + size / 2.0,
                "bold 14px system-ui, sans-serif",
                ink,
                "center",
            );
        }
    }
    let hidden = snap
        .tellers_alive
        .saturating_sub(fit.min(snap.tellers.len()) as u64);
    if hidden > 0 {
        text(
            &ctx,
            &format!("+{} more tellers", fmt_count(hidden as f64)),
            x0,
            60.0 + area_h + 12.0,
            "bold 15px system-ui, sans-serif",
            th.ink,
            "left",
        );
    }

    // The cores.
    let cy = 312.0;
    text(
        &ctx,
        &cores_heading(snap.busy_cores, snap.cores, CORES_SHOWN),
        x0,
        cy,
        HEAD_FONT,
        th.ink,
        "left",
    );
    let shown = snap.cores.min(CORES_SHOWN);
    let cs = (area_w / f64::from(shown.max(8)) - 3.0).min(28.0);
    for i in 0..shown {
        let color = if i < snap.busy_cores.min(shown) {
            palette::ORANGE
        } else {
            th.empty
        };
        square(&ctx, x0 + f64::from(i) * (cs + 3.0), cy + 16.0, cs, color);
    }

    // The back office.
    let xb = 710.0;
    heading(
        &ctx,
        th,
        xb,
        &format!("Back office: {}", fmt_count(snap.waiting as f64)),
        "waiting off the CPU",
    );
    dot_grid(&ctx, th, snap.waiting, xb, 60.0, 11, 6, 20.0, palette::SKY);

    // Outcomes.
    let yo = 232.0;
    let outcomes = [
        ("Done", snap.completed, palette::GREEN),
        ("Refused", snap.refused, palette::VERMILLION),
        ("Gave up", snap.timed_out, palette::PURPLE),
    ];
    for (i, (label, n, color)) in outcomes.iter().enumerate() {
        let y = yo + i as f64 * 28.0;
        square(&ctx, xb, y - 8.0, 16.0, color);
        text(&ctx, label, xb + 24.0, y, BODY_FONT, th.ink, "left");
        text(
            &ctx,
            &fmt_count(*n as f64),
            w - 16.0,
            y,
            "bold 16px system-ui, sans-serif",
            th.ink,
            "right",
        );
    }

    // Legend.
    let ly = h - 22.0;
    let items = [
        (palette::ORANGE, "on a core"),
        (palette::YELLOW, "wants a core"),
        (palette::SKY, "holds a request that waits"),
        (th.empty, "idle"),
        (th.ink, "request in line"),
    ];
    let mut x = 16.0;
    for (color, label) in items {
        square(&ctx, x, ly - 8.0, 16.0, color);
        text(&ctx, label, x + 22.0, ly, BODY_FONT, th.ink, "left");
        let width = ctx.width(label, BODY_FONT).unwrap_or(100.0);
        x += 22.0 + width + 22.0;
    }
}

/// A series colour as drawn on this theme: blue lightens on a dark page.
fn col(c: &'static str, th: &Theme) -> &'static str {
    if c == palette::BLUE {
        th.blue
    } else {
        c
    }
}

/// Draws `chart` on `canvas`, `w` × `h` CSS pixels.
pub fn draw_chart(canvas: &HtmlCanvasElement, chart: &Chart, th: &Theme, w: f64, h: f64) {
    let Some(ctx) = context(canvas, w, h).map(Pen::new) else {
        return;
    };
    let small = "14px system-ui, sans-serif";
    // Legend, in rows above the plot; the plot starts below it.
    let mut lx = 8.0;
    let mut ly = 14.0;
    for s in &chart.series {
        let width = ctx.width(&s.label, small).unwrap_or(80.0);
        if lx + 34.0 + width > w {
            lx = 8.0;
            ly += 20.0;
        }
        legend_mark(&ctx, s, th, lx, ly);
        text(&ctx, &s.label, lx + 26.0, ly, small, th.ink, "left");
        lx += 26.0 + width + 18.0;
    }
    let (left, right, top, bottom) = (78.0, 16.0, ly + 44.0, 52.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let (x0, x1) = chart.x;
    let (y0, y1) = chart.y;
    let fy = |y: f64| -> f64 {
        let t = if chart.y_log {
            (y.log10() - y0.log10()) / (y1.log10() - y0.log10())
        } else {
            (y - y0) / (y1 - y0)
        };
        top + ph * (1.0 - t)
    };
    let fx = |x: f64| left + pw * (x - x0) / (x1 - x0);

    // Grid and ticks.
    ctx.set_line_width(1.0);
    let yt = if chart.y_log {
        log_ticks(y0, y1)
    } else {
        linear_ticks(y0, y1, 5)
    };
    let y_labels = fmt_ticks(&yt);
    for (t, label) in yt.into_iter().zip(y_labels) {
        let y = fy(t);
        ctx.set_stroke_style_str(th.grid);
        ctx.begin_path();
        ctx.move_to(left, y);
        ctx.line_to(left + pw, y);
        ctx.stroke();
        text(&ctx, &label, left - 8.0, y, small, th.muted, "right");
    }
    let xt = linear_ticks(x0, x1, 8);
    let x_labels = fmt_ticks(&xt);
    for (t, tick_label) in xt.into_iter().zip(x_labels) {
        let x = fx(t);
        ctx.set_stroke_style_str(th.grid);
        ctx.begin_path();
        ctx.move_to(x, top);
        ctx.line_to(x, top + ph);
        ctx.stroke();
        let label = if chart.x_percent {
            format!("{}", (t * 100.0).round())
        } else {
            tick_label
        };
        text(&ctx, &label, x, top + ph + 16.0, small, th.muted, "center");
    }
    ctx.set_stroke_style_str(th.muted);
    ctx.stroke_rect(left, top, pw, ph);
    text(
        &ctx,
        &chart.x_label,
        left + pw / 2.0,
        h - 12.0,
        "15px system-ui, sans-serif",
        th.ink,
        "center",
    );
    text(
        &ctx,
        &chart.y_label,
        8.0,
        top - 16.0,
        "15px system-ui, sans-serif",
        th.ink,
        "left",
    );

    // Series, clipped to the plot.
    ctx.save();
    ctx.begin_path();
    ctx.rect(left, top, pw, ph);
    ctx.clip();
    for s in &chart.series {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite() && (!chart.y_log || *y > 0.0))
            .map(|&(x, y)| {
                (
                    fx(x),
                    fy(y.clamp(if chart.y_log { y0 * 0.5 } else { f64::MIN }, f64::MAX)),
                )
            })
            .collect();
        match s.mark {
            Mark::Line | Mark::Dashed => {
                dash(&ctx, s.mark == Mark::Dashed);
                ctx.set_stroke_style_str(col(s.color, th));
                ctx.set_line_width(2.5);
                ctx.begin_path();
                for (i, (x, y)) in pts.iter().enumerate() {
                    if i == 0 {
                        ctx.move_to(*x, *y);
                    } else {
                        ctx.line_to(*x, *y);
                    }
                }
                ctx.stroke();
                dash(&ctx, false);
            }
            Mark::Dots => pts
                .iter()
                .for_each(|(x, y)| dot(&ctx, *x, *y, 5.0, col(s.color, th))),
            Mark::Squares => pts
                .iter()
                .for_each(|(x, y)| square(&ctx, x - 5.0, y - 5.0, 10.0, col(s.color, th))),
            Mark::Ring => {
                for (x, y) in &pts {
                    ctx.begin_path();
                    let _ = ctx.arc(*x, *y, 10.0, 0.0, std::f64::consts::TAU);
                    ctx.set_stroke_style_str(col(s.color, th));
                    ctx.set_line_width(3.0);
                    ctx.stroke();
                }
            }
        }
    }
    ctx.restore();
}

fn legend_mark(ctx: &CanvasRenderingContext2d, s: &Series, th: &Theme, x: f64, y: f64) {
    match s.mark {
        Mark::Line | Mark::Dashed => {
            dash(ctx, s.mark == Mark::Dashed);
            ctx.set_stroke_style_str(col(s.color, th));
            ctx.set_line_width(2.5);
            ctx.begin_path();
            ctx.move_to(x, y);
            ctx.line_to(x + 20.0, y);
            ctx.stroke();
            dash(ctx, false);
        }
        Mark::Dots => dot(ctx, x + 10.0, y, 5.0, col(s.color, th)),
        Mark::Squares => square(ctx, x + 5.0, y - 5.0, 10.0, col(s.color, th)),
        Mark::Ring => {
            ctx.begin_path();
            let _ = ctx.arc(x + 10.0, y, 7.0, 0.0, std::f64::consts::TAU);
            ctx.set_stroke_style_str(col(s.color, th));
            ctx.set_line_width(3.0);
            ctx.stroke();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cores_heading, teller_grid};

    #[test]
    fn the_cores_heading_is_one_short_line() {
        assert_eq!(cores_heading(3, 4, 32), "Cores: 3 of 4 busy");
        let many = cores_heading(1024, 1024, 32);
        assert_eq!(many, "Cores: 1,024 of 1,024 busy (32 drawn)");
        // At most about 40 characters of 17 px bold: it ends before the
        // back office column, 420 px to its right.
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
}
