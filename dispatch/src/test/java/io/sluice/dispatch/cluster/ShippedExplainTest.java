package io.sluice.dispatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A CN's EXPLAIN fits its Finished message: short texts go whole, long ones as whole first lines and a note. */
class ShippedExplainTest {
    @Test
    void aTextThatFitsGoesWhole() {
        final String text = "a\nb\n";
        assertThat(ShippedExplain.fit(text, 1024)).isSameAs(text);
        assertThat(ShippedExplain.fit(null, 1024)).isNull();
    }

    @Test
    void aLongTextKeepsWholeFirstLinesAndSaysWhatWasCut() {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            sb.append("line ").append(i).append(" \u00e9\u4e2d\n");
        }
        final String text = sb.toString();
        final String fitted = ShippedExplain.fit(text, 16 * 1024);
        assertThat(fitted.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(16 * 1024);
        assertThat(fitted).startsWith("line 0 ").contains("20000 lines", ShippedExplain.TERM_LENGTH_PROPERTY);
        final String kept = fitted.substring(0, fitted.indexOf("... EXPLAIN cut here"));
        assertThat(kept).endsWith("\n");
        assertThat(text).startsWith(kept);
    }
}
