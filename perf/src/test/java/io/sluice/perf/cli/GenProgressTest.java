package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GenProgressTest {
    final AtomicLong clock = new AtomicLong();
    final StringWriter text = new StringWriter();

    GenProgress progress(final boolean terminal) {
        return new GenProgress(new PrintWriter(text, true), terminal, clock::get, new String[] {"big", "small"},
                new long[] {900, 100});
    }

    @Test
    void withoutATerminalALineEveryTenPercent() {
        final GenProgress p = progress(false);
        for (long rows = 10; rows <= 900; rows += 10) {
            clock.addAndGet(100_000_000L);
            p.update(0, rows);
        }
        p.finish(0, 900);
        p.update(1, 50);
        p.finish(1, 100);
        p.close();
        final List<String> lines = text.toString().lines().toList();
        assertThat(lines).hasSize(10);
        assertThat(lines.get(0)).startsWith("gen  10% 100/1000 rows").contains("ETA").contains("[big 11%]");
        assertThat(lines.get(lines.size() - 1)).startsWith("gen 100% 1000/1000 rows").contains("done in");
        assertThat(text.toString()).doesNotContain("\r");
    }

    @Test
    void rateAndEtaFollowTheClock() {
        final GenProgress p = progress(false);
        clock.set(2_000_000_000L);
        p.update(0, 100);
        // 100 rows in 2 s: 50 rows/s, 900 rows left: 18 s.
        assertThat(text.toString()).contains("50 rows/s").contains("ETA 0:18");
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlaceAtMostFourTimesASecond() {
        final GenProgress p = progress(true);
        for (int i = 1; i <= 100; i++) {
            clock.addAndGet(10_000_000L);
            p.update(0, i);
        }
        p.finish(0, 900);
        p.finish(1, 100);
        p.close();
        final String out = text.toString();
        final long redraws = out.chars().filter(c -> c == '\r').count();
        // 1 s of updates: 4 timed redraws, plus one per finished table.
        assertThat(redraws).isEqualTo(6);
        assertThat(out).endsWith("\n").contains("gen 100%");
        assertThat(out.chars().filter(c -> c == '\n').count()).as("one line, redrawn").isEqualTo(1);
    }

    @Test
    void aTableWithMoreRowsThanExpectedNeverShowsMoreThanTheTotalOr100Percent() {
        final GenProgress p = progress(false);
        // "big" was expected to have 900 rows and has 1200 (lineitem's count is an estimate).
        for (long rows = 50; rows <= 1200; rows += 50) {
            clock.addAndGet(100_000_000L);
            p.update(0, rows);
        }
        p.update(1, 100);
        p.finish(1, 100);
        p.finish(0, 1200);
        p.close();
        final java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "gen +(\\d+)% (\\d+)/(\\d+) rows .*?(ETA (-?)\\d|done).*");
        final List<String> lines = text.toString().lines().toList();
        assertThat(lines).isNotEmpty();
        for (final String l : lines) {
            final java.util.regex.Matcher m = line.matcher(l);
            assertThat(m.matches()).as(l).isTrue();
            assertThat(Integer.parseInt(m.group(1))).as(l).isLessThanOrEqualTo(100);
            assertThat(Long.parseLong(m.group(2))).as(l).isLessThanOrEqualTo(Long.parseLong(m.group(3)));
            assertThat(m.group(5)).as("no negative ETA: " + l).isNullOrEmpty();
            assertThat(l).as(l).doesNotContainPattern("\\[.*1\\d\\d%");
        }
        assertThat(lines.get(lines.size() - 1)).startsWith("gen 100% 1300/1300 rows");
    }

    @Test
    void noLineShowsEveryRowWrittenBelow100Percent() {
        final GenProgress p = new GenProgress(new PrintWriter(text, true), false, clock::get,
                new String[] {"nation"}, new long[] {25});
        clock.addAndGet(100_000_000L);
        p.update(0, 25);
        clock.addAndGet(100_000_000L);
        p.finish(0, 25);
        p.close();
        assertThat(text.toString().lines().toList()).singleElement().asString().startsWith("gen 100% 25/25 rows");
    }
}
