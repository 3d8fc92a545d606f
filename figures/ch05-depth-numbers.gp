# data: ch05-feed-forward --depth 24
# Not a drawing: the numbers the text quotes from the data of Figure
# ch05-norm-placement, as LaTeX macros, so the text cannot drift from them.
stats datafile every ::24::24 using 2 nooutput
post = STATS_min
stats datafile every ::24::24 using 3 nooutput
pre = STATS_min
stats datafile every ::24::24 using 4 nooutput
predicted = STATS_min
set print outfile
print sprintf("\\gdef\\chVpostXXIV{%.5f}%%", post)
print sprintf("\\gdef\\chVpreXXIV{%.2f}%%", pre)
print sprintf("\\gdef\\chVpredXXIV{%.2f}%%", predicted)
unset print
