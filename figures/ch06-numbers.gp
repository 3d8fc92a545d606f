# data: ch06-embeddings
# Not a drawing: the numbers the text of Chapter 6 quotes from the demo's
# output, as LaTeX macros, so the text cannot drift from the program.
scale = system("awk '$1 == 512 && NF == 9 {print; exit}' " . datafile)
base = system("grep '^total' " . datafile . " | sed -n 1p")
big = system("grep '^total' " . datafile . " | sed -n 2p")
fits = system("grep '^every row but big fits' " . datafile)
bigrow = system("grep '^big ' " . datafile)
set print outfile
print sprintf("\\gdef\\chVIpevar{%.2f}%%", real(word(scale, 5)))
print sprintf("\\gdef\\chVIbaseM{%.1f}%%", real(word(base, 2)) / 1e6)
print sprintf("\\gdef\\chVIbigM{%.1f}%%", real(word(big, 2)) / 1e6)
print sprintf("\\gdef\\chVIvocabLo{%s}%%", word(fits, 9))
print sprintf("\\gdef\\chVIvocabHi{%s}%%", word(fits, 11))
print sprintf("\\gdef\\chVIbigLo{%s}%%", word(bigrow, 10))
print sprintf("\\gdef\\chVIbigHi{%s}%%", word(bigrow, 12))
unset print
