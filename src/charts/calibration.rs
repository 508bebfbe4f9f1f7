//! The Clusters page's chart of measured message times: one message size's histogram of
//! one-way times, as bars of probability per bin (`model::simulate::calibration`).

use super::{Axis, Bars, XyChart};
use crate::model::fmt_num;
use crate::model::simulate::calibration::SizeHistogram;

/// The histogram of one message size: a bar per bin, its height the share of that size's
/// samples in the bin (the probability the simulator draws a time from it).
pub fn message_times(h: &SizeHistogram) -> XyChart {
    let n = f64::from(h.bins.iter().map(|b| b.2).sum::<u32>().max(1));
    XyChart {
        title: format!("One-way times of {} messages of {} B", h.samples, fmt_num(h.size_bytes, 8)),
        x: Axis { label: "one-way time (µs)".into(), log: false, limits: None },
        y: Axis { label: "probability".into(), log: false, limits: None },
        bars: vec![Bars {
            label: format!("{} B", fmt_num(h.size_bytes, 8)),
            bins: h.bins.iter().map(|&(a, b, c)| (a, b, f64::from(c) / n)).collect(),
            color: 0,
        }],
        ..XyChart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::{to_svg_themed, Drawing, Theme};
    use crate::model::simulate::calibration::{histogram, SizeSamples};

    /// The bar rectangles of an SVG in the bars' colour (palette 0), as (height px) per bar.
    fn bar_heights(svg: &str) -> Vec<f64> {
        let (r, g, b) = crate::charts::PALETTE[0];
        let fill = format!("fill=\"#{r:02X}{g:02X}{b:02X}\"");
        svg.lines()
            .filter(|l| l.trim_start().starts_with("<rect") && l.contains(&fill))
            .filter_map(|l| {
                let at = l.find("height=\"")? + 8;
                l[at..].split('"').next()?.parse().ok()
            })
            .collect()
    }

    #[test]
    fn bars_are_the_bins_with_heights_in_proportion_to_probability() {
        // 16 samples → Sturges' 5 bins with counts 1, 2, 4, 8, 1.
        let mut times = vec![10.0];
        times.extend([12.5; 2]);
        times.extend([14.5; 4]);
        times.extend([16.5; 8]);
        times.push(20.0);
        let h = histogram(&SizeSamples { size_bytes: 1024.0, times_us: times });
        assert_eq!(h.bins.iter().map(|b| b.2).collect::<Vec<_>>(), vec![1, 2, 4, 8, 1]);
        let c = message_times(&h);
        let p: Vec<f64> = c.bars[0].bins.iter().map(|b| b.2).collect();
        assert_eq!(p, vec![1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0, 8.0 / 16.0, 1.0 / 16.0]);
        assert!(c.title.contains("1024 B") && c.title.contains("16 messages"), "{}", c.title);

        let (svg, frame) = to_svg_themed(&c, 640, 400, &Theme::LIGHT).expect("draws");
        assert!(frame.is_some());
        assert!(svg.contains("one-way time (µs)") && svg.contains("probability"));
        let heights = bar_heights(&svg);
        // One swatch in the key, one rectangle per bin.
        let bars: Vec<f64> = heights.iter().copied().filter(|&h| h > 12.0).collect();
        assert_eq!(bars.len(), h.bins.len(), "{heights:?}");
        // Heights in pixels in proportion to the probabilities (within a pixel's rounding).
        let per = bars[3] / p[3];
        for (px, q) in bars.iter().zip(&p) {
            assert!((px - q * per).abs() <= 1.5, "{px} px for p = {q}; {bars:?}");
        }

        // The data table lists the bins and their probabilities.
        let t = c.table();
        assert_eq!(t.rows.len(), 5);
        assert_eq!(t.headers[0], "one-way time from (µs)");
        assert_eq!(t.rows[3][2], "0.5");
    }
}
