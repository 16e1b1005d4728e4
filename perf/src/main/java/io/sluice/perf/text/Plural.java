package io.sluice.perf.text;

/**
 * A count with its noun in the right number, the one way the command line writes counts:
 * {@code 1 row}, {@code 2 rows}, {@code 1 query}, {@code 3 queries}, {@code 1 CN}, {@code 0 CNs}.
 */
public final class Plural {
    private Plural() {
    }

    /** {@code count} and the noun, singular for exactly 1, plural otherwise ({@code 0 rows}). */
    public static String of(final long count, final String singular) {
        return count + " " + noun(count, singular);
    }

    /** The noun alone in the number {@code count} asks for. */
    public static String noun(final long count, final String singular) {
        return count == 1 ? singular : plural(singular);
    }

    /**
     * The regular English plural: {@code query -> queries} (a consonant before y),
     * {@code match -> matches} (s, x, z, ch, sh), otherwise an s ({@code CN -> CNs}, {@code key -> keys}).
     */
    static String plural(final String singular) {
        final int n = singular.length();
        if (n >= 2 && singular.charAt(n - 1) == 'y' && "aeiou".indexOf(singular.charAt(n - 2)) < 0) {
            return singular.substring(0, n - 1) + "ies";
        }
        if (singular.endsWith("s") || singular.endsWith("x") || singular.endsWith("z") || singular.endsWith("ch")
                || singular.endsWith("sh")) {
            return singular + "es";
        }
        return singular + "s";
    }
}
