package io.sluice.shuffle;

import java.util.Locale;

/**
 * What a colocated scan does with a block whose key range straddles CN ranges (see
 * {@link ScanAssignment}). Storage is shared, so every CN can read every block: the choice is
 * between shipping part of the block across CNs and reading the block more than once.
 */
public enum StraddlePolicy {
    /**
     * The block is read once, by the CN where most of its rows belong; the shuffle sends the rest
     * of its rows to their CNs. The default.
     */
    MAJORITY,
    /**
     * The block is read by every CN its rows may belong to (the CNs its key range overlaps, plus
     * the null bucket's CN when it holds null keys), and each keeps only the rows of its own CN
     * range: no row crosses CNs, at the price of reading the block more than once.
     */
    SPLIT;

    /**
     * The name shown to users: {@code majority}, {@code split}.
     *
     * @return the constant's name in lower case
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The policy named by {@link #label()} (any case).
     *
     * @param text {@code majority} or {@code split}, surrounding spaces ignored
     * @return the policy
     * @throws IllegalArgumentException naming the text and the valid names
     */
    public static StraddlePolicy parse(final String text) {
        if (text != null) {
            for (final StraddlePolicy policy : values()) {
                if (policy.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                    return policy;
                }
            }
        }
        throw new IllegalArgumentException("straddle policy '" + text + "' is not valid: use majority (read a"
                + " straddling block once, where most of its rows belong) or split (read it on every CN it overlaps)");
    }
}
