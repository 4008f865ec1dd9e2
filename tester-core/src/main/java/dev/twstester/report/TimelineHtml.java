package dev.twstester.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import dev.twstester.property.CoverageTable;
import dev.twstester.report.TimelinePage.Cell;
import dev.twstester.report.TimelinePage.Column;
import dev.twstester.report.TimelinePage.Lane;

/**
 * Renders a {@link TimelinePage} as one HTML file: inline SVG, CSS and vanilla JavaScript, no
 * external resource. Every text that comes from the user (keys, rows, titles, notes) goes through
 * {@link #esc}; the script only moves pre-rendered, escaped elements.
 */
final class TimelineHtml {
    static final int LEFT = 160;
    static final int COL = 64;
    static final int TOP = 34;
    static final int WM_HEIGHT = 110;
    static final int PT_HEIGHT = 60;
    static final int ROW = 22;
    static final int LANE = 40;
    static final int GAP = 18;
    /** Timer markers drawn in one cell; the rest are counted. */
    static final int MARKERS = 4;

    private static final DateTimeFormatter FULL = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private final TimelinePage<?, ?, ?> page;
    private final List<Column> columns;
    private final List<Lane> lanes;
    private final StringBuilder svg = new StringBuilder();

    private TimelineHtml(TimelinePage<?, ?, ?> page) {
        this.page = page;
        this.columns = new ArrayList<>(page.columns);
        this.lanes = page.lanes();
    }

    static String render(TimelinePage<?, ?, ?> page) {
        return new TimelineHtml(page).html();
    }

    private String html() {
        StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(esc(page.title)).append(" - twstester timeline</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n<h1>").append(esc(page.title)).append("</h1>\n");
        h.append("<p class=\"query\">").append(esc(describeQuery())).append("</p>\n");
        for (String note : notes()) {
            h.append("<p class=\"note\">").append(esc(note)).append("</p>\n");
        }
        coverage(h);
        h.append(LEGEND);
        h.append("<div id=\"main\"><div id=\"chart\">");
        chart();
        h.append(svg).append("</div>\n<div id=\"panel\"><p class=\"hint\">Hover a batch to see its rows.</p></div></div>\n");
        h.append("<div id=\"details\" hidden>\n");
        for (int i = 0; i < columns.size(); i++) {
            detail(h, i, columns.get(i));
        }
        h.append("</div>\n<script>\n").append(SCRIPT).append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    private String describeQuery() {
        TimelinePage<?, ?, ?> p = page;
        String mode = p.query.timeMode().equals(org.apache.spark.sql.streaming.TimeMode.EventTime()) ? "EventTime"
                : p.query.timeMode().equals(org.apache.spark.sql.streaming.TimeMode.ProcessingTime()) ? "ProcessingTime"
                : "None";
        return p.query.userClass().getSimpleName() + ": " + mode + " mode, " + p.query.outputMode()
                + " output, " + p.query.eventTimeColumn().map(c -> "watermark on " + c + " delayed "
                        + p.query.watermarkDelay()).orElse("no watermark")
                + ", " + p.query.shufflePartitions() + " shuffle partition" + (p.query.shufflePartitions() == 1 ? "" : "s")
                + "; " + columns.size() + " batch" + (columns.size() == 1 ? "" : "es") + ", " + lanes.size() + " key"
                + (lanes.size() == 1 ? "" : "s") + "; times in UTC";
    }

    /** The property run's coverage table, when the page has one: percent, tries, label; user labels in bold. */
    private void coverage(StringBuilder h) {
        if (page.coverage == null) {
            return;
        }
        CoverageTable t = page.coverage;
        h.append("<details class=\"coverage\" open><summary>Coverage of ").append(t.tries()).append(" tries</summary>\n<table>");
        for (CoverageTable.Row r : t.rows()) {
            String label = r.userLabel() ? "<b>" + esc(r.label()) + "</b>" : esc(r.label());
            h.append(String.format(java.util.Locale.ROOT, "<tr><td>%.1f%%</td><td>%d</td><td>%s</td></tr>",
                    100.0 * r.reached() / Math.max(1, t.tries()), r.reached(), label));
        }
        h.append("</table></details>\n");
    }

    private List<String> notes() {
        List<String> out = new ArrayList<>(page.notes);
        if (page.batchesLeftOut > 0) {
            out.add("The first " + page.batchesLeftOut + " batches are left out: the page shows the last "
                    + TimelinePage.MAX_BATCHES + ".");
        }
        if (!page.keysLeftOut.isEmpty()) {
            out.add("Key lanes: the first " + TimelinePage.MAX_KEYS + " keys seen; " + page.keysLeftOut.size()
                    + (page.keysLeftOutCapped ? " or more" : "") + " other keys are left out (their rows still count"
                    + " in the batch rows).");
        }
        if (page.keyedRowsCapped) {
            out.add("Input rows per key count the first " + TimelinePage.MAX_KEYED_ROWS + " rows of a batch.");
        }
        if (columns.stream().anyMatch(c -> c.inputCount > TimelinePage.MAX_ROWS || c.outputCount > TimelinePage.MAX_ROWS
                || c.droppedCount > TimelinePage.MAX_ROWS || c.firedCount > TimelinePage.MAX_ROWS)) {
            out.add("A batch's panel lists the first " + TimelinePage.MAX_ROWS + " rows of each list.");
        }
        return out;
    }

    // ---- the SVG

    private int x(int i) {
        return LEFT + i * COL + COL / 2;
    }

    private void chart() {
        int n = columns.size();
        int width = LEFT + Math.max(n, 1) * COL + 20;
        int wmTop = TOP;
        int ptTop = wmTop + WM_HEIGHT + GAP;
        int rowsTop = ptTop + PT_HEIGHT + GAP;
        int lanesTop = rowsTop + 4 * ROW + GAP;
        int height = lanesTop + Math.max(lanes.size(), 1) * LANE + 10;
        svg.append("<svg id=\"timeline\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" data-left=\"").append(LEFT).append("\" data-col=\"").append(COL).append("\" role=\"img\">\n");
        // hover targets first, under everything: the script finds the column from the pointer's x
        for (int i = 0; i < n; i++) {
            svg.append("<rect class=\"col\" data-index=\"").append(i).append("\" data-batch=\"")
                    .append(columns.get(i).batchId).append("\" x=\"").append(LEFT + i * COL).append("\" y=\"0\" width=\"")
                    .append(COL).append("\" height=\"").append(height).append("\"/>\n");
        }
        // column headers
        for (int i = 0; i < n; i++) {
            Column c = columns.get(i);
            svg.append("<text class=\"colhead\" x=\"").append(x(i)).append("\" y=\"14\">").append("b").append(c.batchId)
                    .append("</text><text class=\"colsub\" x=\"").append(x(i)).append("\" y=\"27\">")
                    .append(c.failure != null ? "failed" : c.rerun ? "re-run" : c.hadInput ? "data" : "no data")
                    .append("</text>\n");
        }
        timeChart(wmTop, WM_HEIGHT, "watermarks", List.of(
                new Series("late", "line-late", c -> c.lateWm, "late-event watermark (the previous batch's)"),
                new Series("eviction", "line-eviction", c -> c.evictWm, "eviction watermark (timers, TTL)")));
        timeChart(ptTop, PT_HEIGHT, "processing time", List.of(
                new Series("processing", "line-processing", c -> c.timestamp, "batch timestamp")));
        countRow(rowsTop, 0, "input rows", "count-input", c -> c.inputCount);
        countRow(rowsTop, 1, "dropped late", "count-dropped", c -> c.droppedCount);
        countRow(rowsTop, 2, "outputs", "count-outputs", c -> c.outputCount);
        countRow(rowsTop, 3, "timers fired", "count-fired", c -> c.firedCount);
        lanes(lanesTop);
        svg.append("<rect id=\"cursor\" x=\"0\" y=\"0\" width=\"").append(COL).append("\" height=\"").append(height)
                .append("\" visibility=\"hidden\"/>\n");
        svg.append("</svg>");
    }

    private record Series(String name, String id, ToLongFunction<Column> value, String label) {}

    /** One chart of instants: epoch values (no watermark yet) sit on the baseline, marked hollow. */
    private void timeChart(int top, int height, String title, List<Series> series) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (Series s : series) {
            for (Column c : columns) {
                long v = s.value.applyAsLong(c);
                if (v != 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        int bottom = top + height - 6;
        int upper = top + 10;
        int lowest = bottom - 14;
        svg.append("<g class=\"timechart\" id=\"chart-").append(title.replace(' ', '-')).append("\">")
                .append("<rect class=\"band\" x=\"").append(LEFT).append("\" y=\"").append(top).append("\" width=\"")
                .append(Math.max(columns.size(), 1) * COL).append("\" height=\"").append(height).append("\"/>")
                .append("<text class=\"rowlabel\" x=\"6\" y=\"").append(top + 14).append("\">").append(esc(title))
                .append("</text>");
        if (min != Long.MAX_VALUE) {
            svg.append("<text class=\"axis\" x=\"6\" y=\"").append(top + 28).append("\">max ").append(esc(time(max)))
                    .append("</text><text class=\"axis\" x=\"6\" y=\"").append(lowest + 4).append("\">min ")
                    .append(esc(time(min))).append("</text>");
        }
        boolean epoch = series.stream().anyMatch(s -> columns.stream().anyMatch(c -> s.value.applyAsLong(c) == 0));
        if (epoch) {
            svg.append("<text class=\"axis\" x=\"6\" y=\"").append(bottom + 4).append("\">")
                    .append(min == Long.MAX_VALUE ? "all at the epoch" : "epoch (none yet)").append("</text>");
        }
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            StringBuilder dots = new StringBuilder();
            for (int i = 0; i < columns.size(); i++) {
                long v = s.value.applyAsLong(columns.get(i));
                // the epoch (no watermark yet) on the baseline, the earliest other instant above it
                double y = v == 0 ? bottom : max == min ? (upper + lowest) / 2.0
                        : lowest - (double) (v - min) / (max - min) * (lowest - upper);
                String ys = fmt(y);
                points.append(i == 0 ? "" : " ").append(x(i)).append(',').append(ys);
                dots.append("<circle class=\"pt ").append(s.name).append(v == 0 ? " epoch" : "").append("\" cx=\"")
                        .append(x(i)).append("\" cy=\"").append(ys).append("\" r=\"3\" data-time=\"")
                        .append(Instant.ofEpochMilli(v)).append("\"><title>batch ").append(columns.get(i).batchId)
                        .append(": ").append(esc(s.label)).append(' ').append(esc(v == 0 ? "epoch (none yet)" : time(v)))
                        .append("</title></circle>");
            }
            svg.append("<polyline class=\"line ").append(s.name).append("\" id=\"").append(s.id).append("\" points=\"")
                    .append(points).append("\"/>").append(dots);
        }
        svg.append("</g>\n");
    }

    private void countRow(int top, int row, String label, String cls, ToLongFunction<Column> count) {
        int y = top + row * ROW;
        long max = 1;
        for (Column c : columns) {
            max = Math.max(max, count.applyAsLong(c));
        }
        svg.append("<g class=\"counts ").append(cls).append("\"><text class=\"rowlabel\" x=\"6\" y=\"").append(y + 15)
                .append("\">").append(label).append("</text>");
        for (int i = 0; i < columns.size(); i++) {
            long v = count.applyAsLong(columns.get(i));
            if (v > 0) {
                int w = (int) Math.max(3, Math.round((COL - 12) * (double) v / max));
                svg.append("<rect class=\"bar ").append(cls).append("\" x=\"").append(x(i) - (COL - 12) / 2)
                        .append("\" y=\"").append(y + 3).append("\" width=\"").append(w).append("\" height=\"")
                        .append(ROW - 6).append("\"/>");
            }
            svg.append("<text class=\"count\" data-index=\"").append(i).append("\" x=\"").append(x(i)).append("\" y=\"")
                    .append(y + 15).append("\">").append(v).append("</text>");
        }
        svg.append("</g>\n");
    }

    private void lanes(int top) {
        int maxSize = 1;
        for (Column c : columns) {
            for (Cell cell : c.cells.values()) {
                if (cell.sizes != null) {
                    maxSize = Math.max(maxSize, total(cell.sizes));
                }
            }
        }
        if (lanes.isEmpty()) {
            svg.append("<text class=\"rowlabel\" x=\"6\" y=\"").append(top + 16).append("\">no keys</text>\n");
        }
        for (int l = 0; l < lanes.size(); l++) {
            Lane lane = lanes.get(l);
            int y = top + l * LANE;
            svg.append("<g class=\"lane\" data-key=\"").append(esc(lane.text)).append("\"><rect class=\"laneband")
                    .append(l % 2 == 0 ? " even" : "").append("\" x=\"0\" y=\"").append(y).append("\" width=\"")
                    .append(LEFT + Math.max(columns.size(), 1) * COL).append("\" height=\"").append(LANE)
                    .append("\"/><text class=\"keylabel\" x=\"6\" y=\"").append(y + 24).append("\">")
                    .append(esc(abbreviate(lane.text, 22))).append("<title>key ").append(esc(lane.text))
                    .append("</title></text>");
            for (int i = 0; i < columns.size(); i++) {
                Cell cell = columns.get(i).cells.get(lane);
                if (cell != null) {
                    cell(lane, i, cell, y, maxSize);
                }
            }
            svg.append("</g>\n");
        }
    }

    private void cell(Lane lane, int i, Cell cell, int y, int maxSize) {
        Column c = columns.get(i);
        int left = x(i) - COL / 2;
        if (cell.inputRows > 0) {
            boolean allLate = cell.droppedRows == cell.inputRows;
            svg.append("<rect class=\"").append(allLate ? "all-late" : "had-input").append("\" x=\"").append(left + 1)
                    .append("\" y=\"").append(y + 1).append("\" width=\"").append(COL - 2).append("\" height=\"")
                    .append(LANE - 2).append("\"><title>").append(esc(lane.text)).append(": ").append(cell.inputRows)
                    .append(" input row").append(cell.inputRows == 1 ? "" : "s").append(" in batch ").append(c.batchId)
                    .append(cell.droppedRows == 0 ? "" : " (" + cell.droppedRows + " dropped late)")
                    .append("</title></rect>");
        }
        if (cell.sizes != null && !cell.sizes.isEmpty()) {
            int total = total(cell.sizes);
            int w = (int) Math.max(3, Math.round((COL - 30) * (double) total / maxSize));
            StringBuilder tip = new StringBuilder(lane.text).append(" after batch ").append(c.batchId).append(':');
            cell.sizes.forEach((name, size) -> tip.append(' ').append(name).append('=').append(size));
            svg.append("<g class=\"state\" data-key=\"").append(esc(lane.text)).append("\" data-index=\"").append(i)
                    .append("\" data-size=\"").append(total).append("\"><rect class=\"statebar\" x=\"").append(left + 4)
                    .append("\" y=\"").append(y + 6).append("\" width=\"").append(w).append("\" height=\"9\"/>")
                    .append("<text class=\"statesize\" x=\"").append(left + 8 + w).append("\" y=\"").append(y + 14)
                    .append("\">").append(total).append("</text><title>").append(esc(tip.toString()))
                    .append("</title></g>");
        }
        List<String[]> markers = new ArrayList<>();
        cell.registered.forEach(t -> markers.add(new String[] {"registered", Long.toString(t)}));
        cell.fired.forEach(t -> markers.add(new String[] {"fired", Long.toString(t)}));
        cell.deleted.forEach(t -> markers.add(new String[] {"deleted", Long.toString(t)}));
        int mx = left + 9;
        int my = y + 29;
        for (int m = 0; m < markers.size(); m++) {
            String kind = markers.get(m)[0];
            long t = Long.parseLong(markers.get(m)[1]);
            if (m == MARKERS) {
                svg.append("<text class=\"more\" x=\"").append(mx - 4).append("\" y=\"").append(my + 4).append("\">+")
                        .append(markers.size() - MARKERS).append("<title>").append(markers.size() - MARKERS)
                        .append(" more timer events: see the batch's panel</title></text>");
                break;
            }
            svg.append("<g class=\"timer ").append(kind).append("\" data-key=\"").append(esc(lane.text))
                    .append("\" data-index=\"").append(i).append("\" data-batch=\"").append(c.batchId)
                    .append("\" data-time=\"").append(Instant.ofEpochMilli(t)).append("\">");
            if (kind.equals("deleted")) {
                svg.append("<path d=\"M").append(mx - 4).append(',').append(my - 4).append(" l8,8 m0,-8 l-8,8\"/>");
            } else {
                svg.append("<circle cx=\"").append(mx).append("\" cy=\"").append(my).append("\" r=\"4.5\"/>");
            }
            svg.append("<title>").append(esc(lane.text)).append(": timer ").append(esc(time(t))).append(' ').append(kind)
                    .append(" in batch ").append(c.batchId).append("</title></g>");
            if (markers.size() == 1) {   // room for its time
                svg.append("<text class=\"timertime\" x=\"").append(mx + 8).append("\" y=\"").append(my + 4).append("\">")
                        .append(shortTime(t)).append("</text>");
            }
            mx += 12;
        }
    }

    private static int total(Map<String, Integer> sizes) {
        return sizes.values().stream().mapToInt(Integer::intValue).sum();
    }

    // ---- the panels

    private void detail(StringBuilder h, int i, Column c) {
        h.append("<div class=\"detail\" id=\"detail-").append(i).append("\" data-batch=\"").append(c.batchId)
                .append("\">\n<h2>batch ").append(c.batchId).append(c.hadInput ? " (data)" : " (no data)")
                .append(c.failure != null ? " failed" : c.rerun ? ", a re-run of failed batch " + c.batchId : "")
                .append("</h2>\n");
        if (c.failure != null) {
            h.append("<p class=\"failure\">").append(esc(c.failure)).append("<br>the query stopped; the next start "
                    + "runs this batch again with the same rows, timestamp and watermarks</p>\n");
        }
        h.append("<p>processing time ").append(esc(time(c.timestamp))).append("<br>late-event watermark ")
                .append(esc(wm(c.lateWm))).append("<br>eviction watermark ").append(esc(wm(c.evictWm))).append("</p>\n");
        list(h, "input", c.inputCount, c.input);
        list(h, "dropped late", c.droppedCount, c.dropped);
        list(h, "outputs", c.outputCount, c.outputs);
        list(h, "timers fired", c.firedCount, c.fired);
        List<String> timerEvents = new ArrayList<>();
        for (Lane lane : lanes) {
            Cell cell = c.cells.get(lane);
            if (cell != null) {
                cell.registered.forEach(t -> timerEvents.add(lane.text + ": registered " + time(t)));
                cell.deleted.forEach(t -> timerEvents.add(lane.text + ": deleted " + time(t)));
            }
        }
        if (!timerEvents.isEmpty()) {
            list(h, "timers registered and deleted (key lanes)", timerEvents.size(), timerEvents);
        }
        if (!c.metrics.isEmpty()) {
            List<String> metrics = new ArrayList<>();
            c.metrics.forEach((k, v) -> metrics.add(k + " = " + v));
            list(h, "metrics", metrics.size(), metrics);
        }
        h.append("</div>\n");
    }

    private static void list(StringBuilder h, String title, int count, List<String> rows) {
        h.append("<h3>").append(esc(title)).append(": ").append(count).append("</h3>");
        if (!rows.isEmpty()) {
            h.append("<ul class=\"rows ").append(title.split(" ")[0]).append("\">");
            for (String row : rows) {
                h.append("<li>").append(esc(row)).append("</li>");
            }
            h.append("</ul>");
        }
        if (count > rows.size()) {
            h.append("<p class=\"more\">... and ").append(count - rows.size()).append(" more</p>");
        }
        h.append('\n');
    }

    // ---- text

    static String time(long ms) {
        return ms % 1000 == 0 ? SECONDS.format(Instant.ofEpochMilli(ms)) : FULL.format(Instant.ofEpochMilli(ms));
    }

    /** {@code 10:35}, {@code 10:35:12} or {@code 10:35:12.250}: the time of day only. */
    static String shortTime(long ms) {
        String full = time(ms);
        String clock = full.substring(11);
        return clock.endsWith(":00") && clock.length() == 8 ? clock.substring(0, 5) : clock;
    }

    private static String wm(long ms) {
        return ms == 0 ? "epoch (none yet)" : time(ms);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "\u2026";
    }

    /** Escapes text for HTML element content and double- or single-quoted attribute values. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (ch < 0x20 && ch != '\n' && ch != '\t') {
                        b.append("\\u").append(String.format("%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.toString();
    }

    private static final String LEGEND = """
            <div class="legend">
            <span><svg width="28" height="10"><line class="line eviction" x1="0" y1="5" x2="28" y2="5"/></svg> eviction watermark</span>
            <span><svg width="28" height="10"><line class="line late" x1="0" y1="5" x2="28" y2="5"/></svg> late-event watermark</span>
            <span><svg width="28" height="10"><line class="line processing" x1="0" y1="5" x2="28" y2="5"/></svg> processing time</span>
            <span><svg width="12" height="12"><g class="timer registered"><circle cx="6" cy="6" r="4.5"/></g></svg> timer registered</span>
            <span><svg width="12" height="12"><g class="timer fired"><circle cx="6" cy="6" r="4.5"/></g></svg> timer fired</span>
            <span><svg width="12" height="12"><g class="timer deleted"><path d="M2,2 l8,8 m0,-8 l-8,8"/></g></svg> timer deleted</span>
            <span><svg width="28" height="10"><rect class="statebar" x="0" y="1" width="20" height="8"/></svg> state size after the batch (values, list elements, map entries)</span>
            <span><svg width="16" height="12"><rect class="had-input" x="0" y="0" width="16" height="12"/></svg> key had input rows</span>
            <span><svg width="16" height="12"><rect class="all-late" x="0" y="0" width="16" height="12"/></svg> all of them late</span>
            </div>
            """;

    private static final String CSS = """
            body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #1d2330; background: #fff; }
            h1 { font-size: 18px; margin: 0 0 4px; }
            p.query, p.note { margin: 2px 0; color: #4a5568; }
            details.coverage { margin: 4px 0; font-size: 12px; } details.coverage td { padding: 0 8px 0 0; }
            .legend { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
            .legend span { display: inline-flex; align-items: center; gap: 5px; }
            #main { display: flex; gap: 16px; align-items: flex-start; }
            #chart { overflow-x: auto; flex: 0 1 auto; min-width: 0; border: 1px solid #d9dee7; }
            #chart svg { display: block; }
            #panel { flex: 0 0 360px; max-height: 80vh; overflow: auto; border: 1px solid #d9dee7; padding: 8px 12px;
                     position: sticky; top: 8px; background: #fafbfc; }
            #panel h2 { font-size: 15px; margin: 0 0 4px; } #panel h3 { font-size: 13px; margin: 8px 0 2px; }
            #panel ul { margin: 0; padding-left: 16px; font: 12px/1.35 ui-monospace, monospace; word-break: break-all; }
            #panel p { margin: 2px 0; } .hint { color: #718096; }
            svg text { font: 11px system-ui, sans-serif; fill: #1d2330; }
            .colhead { text-anchor: middle; font-weight: 600; } .colsub { text-anchor: middle; fill: #718096; font-size: 10px; }
            .rowlabel { font-weight: 600; } .axis { fill: #718096; font-size: 10px; } .keylabel { font-family: ui-monospace, monospace; }
            .count { text-anchor: middle; } .band { fill: #f7f9fc; }
            .laneband { fill: #fff; } .laneband.even { fill: #f7f9fc; }
            .line { fill: none; stroke-width: 2; } .line.eviction { stroke: #2b6cb0; } .line.late { stroke: #dd6b20; stroke-dasharray: 5 3; }
            .line.processing { stroke: #38a169; }
            .pt.eviction { fill: #2b6cb0; } .pt.late { fill: #dd6b20; } .pt.processing { fill: #38a169; } .pt.epoch { fill: #fff; stroke: #718096; }
            .bar { opacity: .35; } .bar.count-input { fill: #3182ce; } .bar.count-dropped { fill: #e53e3e; }
            .bar.count-outputs { fill: #805ad5; } .bar.count-fired { fill: #d69e2e; }
            .statebar { fill: #4a5568; } .statesize { font-size: 10px; }
            .had-input { fill: #bee3f8; opacity: .6; } .all-late { fill: #fed7d7; opacity: .8; }
            .timer circle { stroke: #b7791f; stroke-width: 1.6; } .timer.registered circle { fill: #fff; }
            .timer.fired circle { fill: #b7791f; } .timer.deleted path { stroke: #c53030; stroke-width: 2; fill: none; }
            .more { font-size: 10px; fill: #718096; } .timertime { font-size: 10px; fill: #4a5568; }
            .col { fill: transparent; } #cursor { fill: rgba(49,130,206,.13); stroke: #3182ce; pointer-events: none; }
            """;

    private static final String SCRIPT = """
            (function () {
              var panel = document.getElementById('panel');
              var svg = document.getElementById('timeline');
              var cols = document.querySelectorAll('rect.col');
              var left = Number(svg.getAttribute('data-left'));
              var width = Number(svg.getAttribute('data-col'));
              var current = -1;
              function show(i) {
                var detail = document.getElementById('detail-' + i);
                if (!detail || i === current) { return; }
                if (current >= 0) { cols[current].classList.remove('active'); }
                cols[i].classList.add('active');
                current = i;
                var cursor = document.getElementById('cursor');
                cursor.setAttribute('x', cols[i].getAttribute('x'));
                cursor.setAttribute('visibility', 'visible');
                panel.textContent = '';
                panel.appendChild(detail.cloneNode(true));
              }
              function at(e) {
                var box = svg.getBoundingClientRect();
                var i = Math.floor((e.clientX - box.left - left) / width);
                if (i >= 0 && i < cols.length) { show(i); }
              }
              svg.addEventListener('mousemove', at);
              svg.addEventListener('mouseover', at);
            })();
            """;
}
