package io.sluice.perf.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The test's reader of the Prometheus text format takes what the client library writes and refuses what breaks it. */
class PrometheusTextTest {
    @Test
    void itReadsWhatTheClientLibraryWrites() throws Exception {
        final PrometheusRegistry registry = new PrometheusRegistry();
        Counter.builder().name("sluice_x_total").help("x").labelNames("mode").register(registry).labelValues("a\"b").inc(3);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        final PrometheusText text = PrometheusText.parse(out.toString(StandardCharsets.UTF_8));
        assertThat(text.get("sluice_x_total{mode=\"a\\\"b\"}")).isEqualTo(3.0);
    }

    @Test
    void itRefusesSamplesWithoutATypeMalformedLabelsAndRepeatedSeries() {
        assertThatThrownBy(() -> PrometheusText.parse("x_total 1\n")).hasMessageContaining("no family");
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE x counter\nx_total{a=b} 1\n"))
                .hasMessageContaining("malformed labels");
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE x gauge\nx 1\nx 2\n")).hasMessageContaining("twice");
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE x gauge\nx one\n")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                + "h_count 1\n")).hasMessageContaining("buckets fall");
    }
}
