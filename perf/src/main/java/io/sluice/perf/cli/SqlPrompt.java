package io.sluice.perf.cli;

import io.sluice.sql.SqlException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * The interactive prompt of {@code sluice sql}: reads statements from a terminal with line editing and a
 * history kept in a file, a statement running over as many lines as it takes up to the {@code ;} that ends
 * it, and runs each with a {@link SqlStatementRunner} as soon as it is complete, its rows followed by their
 * count and times. An error is printed as the one-shot command prints it and the prompt goes on.
 * {@code \q}, {@code quit}, {@code exit} or CTRL-D at the start of a statement leave; CTRL-C drops the
 * statement being typed or cancels the one running.
 */
final class SqlPrompt {
    /** The prompt of a statement's first line. */
    static final String PROMPT = "sluice> ";
    /** The prompt of its further lines. */
    static final String CONTINUATION = "   ...> ";
    private static final Set<String> QUIT = Set.of("\\q", "quit", "exit", "quit;", "exit;");

    private final Terminal terminal;
    private final SqlStatementRunner runner;
    private final Path history;
    private final PrintWriter out;
    private final PrintWriter err;
    private final String errorPrefix;
    private final ResultFormat format;

    /**
     * @param terminal    where statements are typed
     * @param runner      what runs them
     * @param history     the history file (read at the start, appended to line by line); null for none
     * @param out         where rows go (the terminal's writer, or a test's)
     * @param err         where errors, counts and times go
     * @param errorPrefix what an error line starts with, as the one-shot command prints it
     * @param format      how rows print (a table already ends with its row count)
     */
    SqlPrompt(final Terminal terminal, final SqlStatementRunner runner, final Path history, final PrintWriter out,
              final PrintWriter err, final String errorPrefix, final ResultFormat format) {
        this.terminal = terminal;
        this.runner = runner;
        this.history = history;
        this.out = out;
        this.err = err;
        this.errorPrefix = errorPrefix;
        this.format = format;
    }

    /** The history file of the user running this process: {@code ~/.sluice_history}. */
    static Path defaultHistory() {
        return Path.of(System.getProperty("user.home"), ".sluice_history");
    }

    /** Reads and runs statements until the user leaves or the input ends. */
    void run() {
        final LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("sluice sql")
                // '!' and '^' are SQL operators, not history references.
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                // History holds whole statements, added below, not the lines they were typed on.
                .variable(LineReader.DISABLE_HISTORY, true);
        if (history != null) {
            builder.variable(LineReader.HISTORY_FILE, history);
        }
        final LineReader reader = builder.build();
        final StringBuilder typed = new StringBuilder();
        while (true) {
            final String line;
            try {
                line = reader.readLine(typed.length() == 0 ? PROMPT : CONTINUATION);
            } catch (final UserInterruptException e) {
                // The reader interrupts its own thread on CTRL-C; the next read must not see that again.
                Thread.interrupted();
                typed.setLength(0);
                continue;
            } catch (final EndOfFileException e) {
                break;
            }
            if (SqlScript.isBlank(typed.toString()) && QUIT.contains(line.strip().toLowerCase(Locale.ROOT))) {
                break;
            }
            typed.append(line).append('\n');
            final SqlScript script = SqlScript.split(typed);
            if (!script.statements().isEmpty()) {
                // The history refuses entries while it is disabled for the reader's own lines.
                reader.setVariable(LineReader.DISABLE_HISTORY, false);
                reader.getHistory().add(typed.substring(0, typed.length() - script.rest().length()).strip());
                reader.setVariable(LineReader.DISABLE_HISTORY, true);
            }
            typed.setLength(0);
            if (script.hasRest()) {
                typed.append(script.rest());
            }
            for (final String statement : script.statements()) {
                runOne(statement);
            }
        }
        try {
            reader.getHistory().save();
        } catch (final IOException e) {
            err.println(errorPrefix + "cannot save the history to " + history + ": " + e.getMessage());
        }
        err.flush();
    }

    /** Runs one statement, CTRL-C cancelling it; prints its rows, or its error, and goes on. */
    private void runOne(final String statement) {
        final AtomicBoolean cancelled = new AtomicBoolean();
        final Terminal.SignalHandler before = terminal.handle(Terminal.Signal.INT, signal -> {
            cancelled.set(true);
            runner.cancel("cancelled at the prompt (CTRL-C)");
        });
        try {
            err.println(runner.run(statement, out, err).describe(format != ResultFormat.table));
        } catch (final SqlException e) {
            err.println(errorPrefix + "the statement: " + e.getMessage());
        } catch (final RuntimeException e) {
            if (cancelled.get()) {
                err.println("cancelled (CTRL-C)");
            } else if (e instanceof UncheckedIOException io) {
                err.println(errorPrefix + io.getCause());
            } else {
                err.println(errorPrefix + (e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        } finally {
            terminal.handle(Terminal.Signal.INT, before);
            // A cancel may interrupt this thread after the statement ended: the next line must not see it.
            Thread.interrupted();
            out.flush();
            err.flush();
        }
    }
}
