package io.sluice.perf.metrics;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for the tests that scrape
 * {@code /metrics}: every line is a {@code # HELP}, a {@code # TYPE} of a known type, or a sample of a
 * family whose TYPE came first, with well-formed labels and value; no series twice; a histogram's
 * buckets rise to its {@code +Inf} bucket, which equals its count. Anything else is an
 * {@link IllegalArgumentException} naming the line.
 */
public final class PrometheusText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");
    private static final Set<String> SUFFIXES = Set.of("", "_total", "_count", "_sum", "_bucket", "_created", "_info");

    private final Map<String, Double> samples;

    private PrometheusText(final Map<String, Double> samples) {
        this.samples = samples;
    }

    /** Parses a scrape; throws naming the first line that breaks the format. */
    public static PrometheusText parse(final String text) {
        final Map<String, String> types = new HashMap<>();
        final Map<String, Double> samples = new LinkedHashMap<>();
        final String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            final String line = lines[i];
            final String where = "line " + (i + 1) + " '" + line + "'";
            if (line.isEmpty()) {
                if (i != lines.length - 1) {
                    throw new IllegalArgumentException(where + ": an empty line inside the scrape");
                }
                continue;
            }
            Matcher m;
            if ((m = TYPE.matcher(line)).matches()) {
                if (types.put(m.group(1), m.group(2)) != null) {
                    throw new IllegalArgumentException(where + ": a second TYPE of " + m.group(1));
                }
            } else if (HELP.matcher(line).matches()) {
                continue;
            } else if (line.startsWith("#")) {
                throw new IllegalArgumentException(where + ": a comment that is neither HELP nor TYPE");
            } else if ((m = SAMPLE.matcher(line)).matches()) {
                final String name = m.group(1);
                if (family(name, types) == null) {
                    throw new IllegalArgumentException(where + ": a sample of no family declared by a TYPE before it");
                }
                final String labels = m.group(3) == null ? "" : m.group(3);
                final Matcher l = LABEL.matcher(labels);
                int at = 0;
                while (at < labels.length()) {
                    if (!l.find(at) || l.start() != at) {
                        throw new IllegalArgumentException(where + ": malformed labels");
                    }
                    at = l.end();
                }
                final double value = value(m.group(4), where);
                if (samples.put(name + "{" + labels + "}", value) != null) {
                    throw new IllegalArgumentException(where + ": the same series twice");
                }
            } else {
                throw new IllegalArgumentException(where + ": not a sample");
            }
        }
        final PrometheusText parsed = new PrometheusText(samples);
        for (final Map.Entry<String, String> t : types.entrySet()) {
            if (t.getValue().equals("histogram")) {
                parsed.checkHistogram(t.getKey());
            }
        }
        return parsed;
    }

    private static String family(final String name, final Map<String, String> types) {
        for (final String suffix : SUFFIXES) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return null;
    }

    private static double value(final String text, final String where) {
        switch (text) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (final NumberFormatException e) {
                    throw new IllegalArgumentException(where + ": value '" + text + "' is not a number", e);
                }
        }
    }

    /** Buckets of an unlabelled histogram rise, and the +Inf one equals the count. */
    private void checkHistogram(final String name) {
        double previous = 0;
        Double inf = null;
        for (final Map.Entry<String, Double> s : samples.entrySet()) {
            if (s.getKey().startsWith(name + "_bucket{")) {
                if (s.getValue() < previous) {
                    throw new IllegalArgumentException(name + " buckets fall at " + s.getKey());
                }
                previous = s.getValue();
                if (s.getKey().contains("le=\"+Inf\"")) {
                    inf = s.getValue();
                }
            }
        }
        final Double count = samples.get(name + "_count{}");
        if (inf == null || !inf.equals(count)) {
            throw new IllegalArgumentException(name + ": +Inf bucket " + inf + " but count " + count);
        }
    }

    /** A series' value ({@code name{labels}} as written, {@code name{}} without labels), or null. */
    public Double get(final String series) {
        return samples.get(series);
    }

    /** The value of a series, 0 when the scrape does not have it (a labelled counter not touched yet). */
    public double value(final String series) {
        final Double v = samples.get(series);
        return v == null ? 0 : v;
    }

    /** Every series. */
    public Map<String, Double> samples() {
        return samples;
    }
}
