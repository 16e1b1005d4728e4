package io.sluice.perf.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code sluice} commands an error message suggests (written in back quotes), and running one as typed. */
final class Hints {
    private static final Pattern COMMAND = Pattern.compile("`(sluice [^`]+)`");

    private Hints() {
    }

    /** Every {@code `sluice ...`} in a message, in order. */
    static List<String> commands(final String message) {
        final List<String> commands = new ArrayList<>();
        final Matcher m = COMMAND.matcher(message);
        while (m.find()) {
            commands.add(m.group(1));
        }
        return commands;
    }

    /** Runs a suggested command in this process, split on spaces as a shell would split it (no quoting in hints). */
    static Cli.Result run(final String command) {
        final String[] words = command.split(" ");
        if (!words[0].equals("sluice")) {
            throw new IllegalArgumentException("not a sluice command: " + command);
        }
        return Cli.run(java.util.Arrays.copyOfRange(words, 1, words.length));
    }
}
