# data: ch05-feed-forward
# Not a drawing: the "without the ReLU" part of the demo's output, set verbatim,
# so that the book shows what the program prints when the book is built.
set print outfile
print "\\begin{verbatim}"
print system("sed -n '/^## without the ReLU/,/^$/{/^#/d;/^$/d;p}' " . datafile)
print "\\end{verbatim}"
unset print
