package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RejectionLogTest {
    @Test
    void aFloodFromOneSourceGivesOneLineAnIntervalAndEveryMessageIsCounted() {
        final List<String> lines = new ArrayList<>();
        final long[] now = {0};
        final RejectionLog log = new RejectionLog("the CN's data stream", lines::add, () -> now[0]);
        for (int i = 0; i < 10_000; i++) {
            log.reject("10.0.0.9:4000", "tag does not match", "message " + i);
        }
        log.reject("10.0.0.8:4000", "tag does not match", "other");
        log.reject("10.0.0.9:4000", "replay", "a replay");
        assertThat(lines).containsExactly(
                "the CN's data stream dropped a message from 10.0.0.9:4000 (tag does not match, 1 so far): message 0",
                "the CN's data stream dropped a message from 10.0.0.8:4000 (tag does not match, 1 so far): other",
                "the CN's data stream dropped a message from 10.0.0.9:4000 (replay, 1 so far): a replay");
        now[0] += RejectionLog.INTERVAL_NS;
        log.reject("10.0.0.9:4000", "tag does not match", "message 10000");
        assertThat(lines.get(3)).isEqualTo("the CN's data stream dropped 10000 messages from 10.0.0.9:4000"
                + " (tag does not match, 10001 so far): message 10000");
        assertThat(log.total()).isEqualTo(10_003);
        assertThat(log.fromSource("10.0.0.9:4000")).isEqualTo(10_002);
    }
}
