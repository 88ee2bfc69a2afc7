//! The lab's HTML reports: one self-contained page (inline SVG charts, no script, the JSON
//! behind it embedded) that a designer opens in any browser, and that the server lists.

use std::fmt::Write;

use super::{FairReport, SeriesReport, SweepReport};

/// A named curve of (value, low, high) points.
type Curve = (String, Vec<(f64, f64, f64)>);

const COLOURS: [&str; 8] = ["#222", "#c33", "#36c", "#2a2", "#c90", "#939", "#099", "#777"];
const W: f64 = 560.0;
const H: f64 = 220.0;
const PAD: f64 = 40.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A chart's frame: axes from `y0` to `y1` with a few labelled ticks.
fn frame(out: &mut String, title: &str, y0: f64, y1: f64, percent: bool) {
    let _ = write!(
        out,
        r#"<figure><figcaption>{}</figcaption><svg viewBox="0 0 {W} {H}" width="{W}" height="{H}">"#,
        esc(title)
    );
    let _ = write!(
        out,
        r##"<line x1="{PAD}" y1="{}" x2="{}" y2="{}" stroke="#888"/>"##,
        H - PAD,
        W - 10.0,
        H - PAD
    );
    for i in 0..=4 {
        let v = y0 + (y1 - y0) * i as f64 / 4.0;
        let y = yof(v, y0, y1);
        let label = if percent { format!("{:.0} %", v * 100.0) } else { format!("{v:.0}") };
        let _ = write!(
            out,
            r##"<line x1="{PAD}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#eee"/><text x="{}" y="{:.1}" font-size="10" text-anchor="end">{label}</text>"##,
            W - 10.0,
            PAD - 4.0,
            y + 3.0
        );
    }
}

fn yof(v: f64, y0: f64, y1: f64) -> f64 {
    let span = if y1 > y0 { y1 - y0 } else { 1.0 };
    H - PAD - (v - y0) / span * (H - 2.0 * PAD)
}

/// Bars with 95 % intervals, and a dashed line at `even`.
fn bars(out: &mut String, title: &str, items: &[(String, f64, f64, f64)], even: Option<f64>) {
    frame(out, title, 0.0, 1.0, true);
    let n = items.len().max(1) as f64;
    let slot = (W - PAD - 10.0) / n;
    for (i, (label, v, lo, hi)) in items.iter().enumerate() {
        let x = PAD + slot * i as f64 + slot * 0.2;
        let w = slot * 0.6;
        let (y, base) = (yof(*v, 0.0, 1.0), yof(0.0, 0.0, 1.0));
        let c = COLOURS[i % COLOURS.len()];
        let _ = write!(
            out,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{:.1}" fill="{c}" opacity="0.7"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#000"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{} ({:.0} %)</text>"##,
            base - y,
            x + w / 2.0,
            yof(*lo, 0.0, 1.0),
            x + w / 2.0,
            yof(*hi, 0.0, 1.0),
            x + w / 2.0,
            H - PAD + 14.0,
            esc(label),
            v * 100.0
        );
    }
    if let Some(e) = even {
        let y = yof(e, 0.0, 1.0);
        let _ = write!(
            out,
            r##"<line x1="{PAD}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#000" stroke-dasharray="4 3"/>"##,
            W - 10.0
        );
    }
    out.push_str("</svg></figure>");
}

fn histogram(out: &mut String, title: &str, bins: &[super::Bin]) {
    let top = bins.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
    frame(out, title, 0.0, top, false);
    let slot = (W - PAD - 10.0) / bins.len().max(1) as f64;
    for (i, b) in bins.iter().enumerate() {
        let x = PAD + slot * i as f64;
        let y = yof(b.count as f64, 0.0, top);
        let _ = write!(
            out,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="#36c" opacity="0.6"/><text x="{:.1}" y="{:.1}" font-size="9" text-anchor="middle">{:.0}</text>"##,
            slot - 2.0,
            yof(0.0, 0.0, top) - y,
            x + slot / 2.0,
            H - PAD + 12.0,
            b.from
        );
    }
    out.push_str("</svg></figure>");
}

/// Lines, one per series, over x = 0, 1, 2, ... (`labels` name the x positions).
fn lines(out: &mut String, title: &str, series: &[Curve], labels: &[String], percent: bool) {
    let all = series.iter().flat_map(|(_, p)| p.iter().flat_map(|&(v, lo, hi)| [v, lo, hi]));
    let (mut y0, mut y1) = all.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    if percent {
        (y0, y1) = (y0.clamp(-1.0, 0.0), y1.clamp(0.0, 1.0));
    }
    if y0 >= y1 {
        (y0, y1) = (y0 - 1.0, y0 + 1.0);
    }
    frame(out, title, y0, y1, percent);
    let len = series.iter().map(|(_, p)| p.len()).max().unwrap_or(1).max(2);
    let xof = |i: usize| PAD + (W - PAD - 20.0) * i as f64 / (len - 1) as f64;
    for (k, (name, pts)) in series.iter().enumerate() {
        let c = COLOURS[k % COLOURS.len()];
        let path: Vec<String> = pts
            .iter()
            .enumerate()
            .map(|(i, &(v, _, _))| format!("{:.1},{:.1}", xof(i), yof(v, y0, y1)))
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for (i, &(_, lo, hi)) in pts.iter().enumerate() {
            if lo != hi {
                let _ = write!(
                    out,
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{c}"/>"#,
                    yof(lo, y0, y1),
                    yof(hi, y0, y1),
                    x = xof(i)
                );
            }
        }
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" fill="{c}">{}</text>"#,
            PAD + 8.0 + 90.0 * k as f64,
            14.0,
            esc(name)
        );
    }
    let step = (labels.len() / 8).max(1);
    for (i, l) in labels.iter().enumerate().step_by(step) {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle">{}</text>"#,
            xof(i),
            H - PAD + 14.0,
            esc(l)
        );
    }
    if percent && y0 < 0.0 && y1 > 0.0 {
        let y = yof(0.0, y0, y1);
        let _ = write!(
            out,
            r##"<line x1="{PAD}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#000" stroke-dasharray="4 3"/>"##,
            W - 10.0
        );
    }
    out.push_str("</svg></figure>");
}

fn page(title: &str, body: &str, data: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(data).unwrap_or_default().replace("</", "<\\/");
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{t}</title>
<style>body{{font:14px system-ui,sans-serif;max-width:1200px;margin:1em auto;padding:0 1em}}figure{{display:inline-block;margin:.5em}}figcaption{{font-weight:600}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}</style>
</head><body><h1>{t}</h1>{body}<script type="application/json" id="data">{json}</script></body></html>"#,
        t = esc(title)
    )
}

fn series_section(out: &mut String, r: &SeriesReport) {
    let _ = write!(
        out,
        "<p>{} on {} with {} players, {} games (seed {}), settings: {}. First seat's advantage: {:+.1} % (95 %: {:+.1} … {:+.1}). Draws: {}. Ends: {}.</p>",
        esc(&r.rules),
        esc(&r.map),
        r.players,
        r.games,
        r.seed,
        esc(&if r.settings.is_empty() { "the preset".to_string() } else { r.settings.join(", ") }),
        r.first_seat_advantage.value * 100.0,
        r.first_seat_advantage.low * 100.0,
        r.first_seat_advantage.high * 100.0,
        r.draws,
        esc(&r.end_reasons.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "))
    );
    let items: Vec<(String, f64, f64, f64)> = r
        .seats
        .iter()
        .map(|s| {
            (format!("seat {} ({})", s.seat + 1, s.bot), s.win_rate.value, s.win_rate.low, s.win_rate.high)
        })
        .collect();
    bars(out, "Wins per seat (95 % intervals; dashed: an even share)", &items, Some(1.0 / r.players as f64));
    histogram(out, &format!("Game length in actions (mean {:.0})", r.length.mean), &r.length.histogram);
    histogram(out, &format!("Winning margin (mean {:.1})", r.margin.mean), &r.margin.histogram);
    if let Some(points) = &r.points_over_time {
        let series: Vec<Curve> = (0..r.players)
            .map(|s| (format!("seat {}", s + 1), points.iter().map(|p| (p[s], p[s], p[s])).collect()))
            .collect();
        let labels: Vec<String> = (0..points.len()).map(|i| ((i + 1) * r.points_every).to_string()).collect();
        lines(out, "Mean points over the game (x: actions played)", &series, &labels, false);
    }
}

pub fn series(r: &SeriesReport) -> String {
    let mut body = String::new();
    series_section(&mut body, r);
    page(&format!("Lab: {} on {}", r.rules, r.map), &body, r)
}

pub fn sweep(r: &SweepReport) -> String {
    let mut body = String::new();
    let players = r.series.first().map_or(2, |s| s.players);
    let curves: Vec<Curve> = (0..players)
        .map(|s| {
            let pts = r
                .series
                .iter()
                .map(|x| (x.seats[s].win_rate.value, x.seats[s].win_rate.low, x.seats[s].win_rate.high));
            (format!("seat {}", s + 1), pts.collect())
        })
        .collect();
    lines(
        &mut body,
        &format!("Wins per seat against {} (95 % intervals)", r.setting),
        &curves,
        &r.values,
        true,
    );
    let len: Vec<Curve> = vec![(
        "mean length".into(),
        r.series.iter().map(|x| (x.length.mean, x.length.mean, x.length.mean)).collect(),
    )];
    lines(&mut body, &format!("Game length against {}", r.setting), &len, &r.values, false);
    for (v, s) in r.values.iter().zip(&r.series) {
        let _ = write!(body, "<h2>{} = {}</h2>", esc(&r.setting), esc(v));
        series_section(&mut body, s);
    }
    page(&format!("Lab: sweep of {}", r.setting), &body, r)
}

pub fn fair(r: &FairReport) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} on {} with {} players: the first seat's advantage against {}. Fair value: <b>{}</b> (range {} … {}).</p>",
        esc(&r.rules),
        esc(&r.map),
        r.players,
        esc(&r.setting),
        r.fair.map_or("not in the range".into(), |v| format!("{v:.2}")),
        r.fair_low.map_or("?".into(), |v| format!("{v:.2}")),
        r.fair_high.map_or("?".into(), |v| format!("{v:.2}")),
    );
    let pts = vec![(
        "first seat".to_string(),
        r.points
            .iter()
            .map(|p| (p.first_seat_advantage.value, p.first_seat_advantage.low, p.first_seat_advantage.high))
            .collect(),
    )];
    let labels: Vec<String> = r.points.iter().map(|p| format!("{}", p.value)).collect();
    lines(&mut body, "First seat's advantage (95 % intervals; dashed: even)", &pts, &labels, true);
    body.push_str("<table><tr><th>value</th><th>advantage</th><th>95 %</th><th>games</th></tr>");
    for p in &r.points {
        let a = p.first_seat_advantage;
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{:+.1} %</td><td>{:+.1} … {:+.1} %</td><td>{}</td></tr>",
            p.value,
            a.value * 100.0,
            a.low * 100.0,
            a.high * 100.0,
            p.games
        );
    }
    body.push_str("</table>");
    page(&format!("Lab: fair {} for {} on {}", r.setting, r.rules, r.map), &body, r)
}

pub fn life(r: &super::life::LifeReport) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} on {}: the fewest stones of an unconditionally alive group, by where it stands.</p>",
        esc(&r.rules),
        esc(&r.map)
    );
    body.push_str("<table><tr><th>where</th><th>stones</th><th>eyes</th><th>group</th></tr>");
    for row in &r.rows {
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td style=\"text-align:left\"><pre>{}</pre></td></tr>",
            esc(&row.location),
            row.stones.map_or("none found".into(), |s| s.to_string()),
            esc(&row.eyes.join(" ")),
            esc(&row.diagram)
        );
    }
    body.push_str("</table>");
    page(&format!("Lab: life table of {} on {}", r.rules, r.map), &body, r)
}
