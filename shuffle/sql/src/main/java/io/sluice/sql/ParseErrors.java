package io.sluice.sql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * The parser's complaints in Sluice's words, without the parser's own vocabulary or its list of
 * every token it could have taken: what was unexpected, and where the statement ended too early.
 * The line and column go in front ({@link SqlException}), so they are left out here.
 */
final class ParseErrors {
    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line \\d+, column \\d+\\..*",
            Pattern.DOTALL);
    private static final Pattern LEXICAL = Pattern.compile("Lexical error at line \\d+, column \\d+\\..*",
            Pattern.DOTALL);
    private static final Pattern NEAR_KEYWORD = Pattern.compile("Incorrect syntax near the keyword '(.*?)' at line"
            + " \\d+, column \\d+\\..*", Pattern.DOTALL);
    private static final String END = "<EOF>";

    private ParseErrors() {
    }

    /** What the parser found wrong, in a sentence. */
    static String explain(final SqlParseException e) {
        final String message = e.getMessage() == null ? "" : e.getMessage();
        Matcher m = ENCOUNTERED.matcher(message);
        if (m.matches()) {
            final String tokens = m.group(1).strip().replace("\\'", "'").replace("\\\"", "\"");
            if (tokens.equals(END)) {
                return "the statement ends too early: it needs more after this point";
            }
            if (tokens.endsWith(END)) {
                return "unexpected \"" + tokens.substring(0, tokens.length() - END.length()).strip()
                        + "\" at the end of the statement: something must follow it, or it must go";
            }
            if (tokens.endsWith("'")) {
                return "a string starts after " + tokens.substring(0, tokens.length() - 1).strip()
                        + " and is never closed: end it with '";
            }
            return "unexpected \"" + tokens + "\"";
        }
        if (LEXICAL.matcher(message).matches()) {
            return "a character here cannot start a word, number or symbol of SQL: quote identifiers with \" and"
                    + " strings with ', and close every quote and comment";
        }
        m = NEAR_KEYWORD.matcher(message);
        if (m.matches()) {
            return "unexpected keyword " + m.group(1);
        }
        if (message.startsWith("Non-query expression encountered in illegal context")) {
            return "an expression stands where a query (SELECT ... FROM ...) must be";
        }
        return SqlFrontEnd.firstLine(message);
    }
}
