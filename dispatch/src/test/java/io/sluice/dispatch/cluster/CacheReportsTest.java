package io.sluice.dispatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.shuffle.BlockCaches;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * The coordinator ships each CN's latest cache report under the CN's index in the query, a CN turns them into the
 * caches its scans are placed by, and a report too large for a control message is left out.
 */
class CacheReportsTest {
    private static Member member(final long id, final List<CachedBlocks> caches) {
        final StreamAddress address = new StreamAddress("aeron:udp?endpoint=127.0.0.1:" + (40_000 + id), 10);
        final Member m = new Member(id, new Register(address, "cn-" + id, 2, address, 1, id, "dev", 0), false, null, 0);
        m.caches = caches;
        return m;
    }

    @Test
    void eachCnsReportTravelsUnderItsIndexInTheQuery() {
        // The reports came from earlier queries, where these CNs had other indexes.
        final Member a = member(7, List.of(new CachedBlocks(2, "lineitem", RoaringBitmap.bitmapOf(0, 1))));
        final Member b = member(8, List.of());
        final Member c = member(9, List.of(new CachedBlocks(0, "lineitem", RoaringBitmap.bitmapOf(5)),
                new CachedBlocks(0, "orders", RoaringBitmap.bitmapOf(3))));
        final List<CachedBlocks> shipped = CacheReports.ofQuery(List.of(c, a, b));
        assertThat(shipped).containsExactly(new CachedBlocks(0, "lineitem", RoaringBitmap.bitmapOf(5)),
                new CachedBlocks(0, "orders", RoaringBitmap.bitmapOf(3)),
                new CachedBlocks(1, "lineitem", RoaringBitmap.bitmapOf(0, 1)));
        final BlockCaches caches = CacheReports.toBlockCaches(shipped, 3);
        assertThat(caches.cachedOf("lineitem")).containsExactly(RoaringBitmap.bitmapOf(5),
                RoaringBitmap.bitmapOf(0, 1), null);
        assertThat(caches.cachedOf("orders")).containsExactly(RoaringBitmap.bitmapOf(3), null, null);
        assertThat(caches.cachedOf("part")).isNull();
        assertThat(CacheReports.toBlockCaches(List.of(), 3)).isSameAs(BlockCaches.NONE);
    }

    @Test
    void reportsTooLargeForAControlMessageAreLeftOut() {
        final RoaringBitmap scattered = new RoaringBitmap();
        for (int b = 0; b < 4_000_000; b += 2) {
            scattered.add(b);
        }
        assertThat(scattered.serializedSizeInBytes()).isGreaterThan(CacheReports.MAX_BYTES);
        assertThat(CacheReports.fit(List.of(new CachedBlocks(0, "lineitem", scattered)))).isEmpty();
        final RoaringBitmap runs = RoaringBitmap.bitmapOfRange(0, 4_000_000);
        runs.runOptimize();
        final List<CachedBlocks> inRuns = List.of(new CachedBlocks(0, "lineitem", runs));
        assertThat(CacheReports.fit(inRuns)).isEqualTo(inRuns);
    }
}
