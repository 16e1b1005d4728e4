package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.shuffle.BlockCaches;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The CNs' reports of their block caches on their way: a CN's own in its finished message, every CN's of a query
 * in its prepare, and back into the {@link BlockCaches} a CN's compiler places scans by. A report too large for a
 * control message beside the rest is left out: scans then read round-robin, which costs fetches, never answers.
 */
final class CacheReports {
    /**
     * 128 KiB: about a million blocks scattered over the tables (a bitmap container of 8 KiB per 65,536 blocks),
     * far more in runs, and well inside a control message (an eighth of the term length, 512 KiB by default).
     */
    static final int MAX_BYTES = 128 * 1024;

    private CacheReports() {
    }

    /** {@code reports}, or none when they would take more than {@link #MAX_BYTES} on the wire. */
    static List<CachedBlocks> fit(final List<CachedBlocks> reports) {
        long bytes = 0;
        for (final CachedBlocks c : reports) {
            bytes += 12 + c.table().getBytes(StandardCharsets.UTF_8).length + c.blocks().serializedSizeInBytes();
        }
        return bytes <= MAX_BYTES ? reports : List.of();
    }

    /** Every CN's latest report, each under its index in the query. */
    static List<CachedBlocks> ofQuery(final List<Member> cns) {
        final List<CachedBlocks> all = new ArrayList<>();
        for (int i = 0; i < cns.size(); i++) {
            for (final CachedBlocks c : cns.get(i).caches) {
                all.add(c.at(i));
            }
        }
        return fit(all);
    }

    /** What a prepare says the caches of its query's {@code cnCount} CNs hold. */
    static BlockCaches toBlockCaches(final List<CachedBlocks> reports, final int cnCount) {
        if (reports.isEmpty()) {
            return BlockCaches.NONE;
        }
        final BlockCaches.Builder caches = BlockCaches.builder(cnCount);
        for (final CachedBlocks c : reports) {
            caches.add(c.table(), c.index(), c.blocks());
        }
        return caches.build();
    }
}
