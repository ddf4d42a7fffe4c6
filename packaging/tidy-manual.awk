# tidy-manual.awk - a page of swift-argument-parser's manual (mdoc), made readable by man-db's
# whatis (lexgrog) and by groff without warnings, for make install:
# - a subcommand page's NAME is the page's own name, notify.server for notify.server.1 (as git's
#   pages name git-commit), where a name of two words leaves whatis and apropos without it; its
#   SYNOPSIS keeps "notify server", the command as typed;
# - a blank line, a paragraph break in the command's discussion, becomes .Pp.
/^\.Nm "[^"]*"$/ && !named {
    full = substr($0, 5); name = substr(full, 2, length(full) - 2); gsub(/ /, ".", name)
    print ".Nm " name; named = 1; next
}
/^\.Nm$/ && full != "" { print ".Nm " full; next }
/^$/ { print ".Pp"; next }
{ print }
