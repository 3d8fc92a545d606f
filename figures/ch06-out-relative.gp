# data: ch06-embeddings
# Not a drawing: the "relative positions" part of the demo's output, set verbatim,
# so that the book shows what the program prints when the book is built.
set print outfile
print "\\begin{verbatim}"
print system("sed -n '/^## relative positions/,/^$/{/^##/d;/^$/d;p}' " . datafile)
print "\\end{verbatim}"
unset print
