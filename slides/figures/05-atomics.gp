# 05-atomics.gp: the demo's table as two plots (gnuplot -e "csv='slides/data/05-atomics.csv'").
# Left: task 1, the byte histogram, global atomics (red) against privatised (green), on random
# and on equal bytes; the label on each green bar is its speedup. Right: task 2's contention
# sweep, time against the fraction of the values in one bin, for both. Log scales: the
# differences span orders of magnitude.
if (!exists("csv")) csv = "slides/data/05-atomics.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,400 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set style fill solid 0.85 border -1
set grid ytics
set logscale y
set format y "%g"
unset key
set multiplot title sprintf("Atomics on %s: time (ms), median of 21 runs, L2 flushed (lower is better)", gpu)

# ---- left: task 1 ----
set origin 0, 0
set size 0.42, 0.94
set title "256-bin histogram of 2^26 bytes"
set ylabel "time (ms)"
set xrange [-0.6:3.6]
set boxwidth 0.6
set xtics rotate by -25 font ",17" noenhanced
set bmargin 6
# the demo's first four rows: global and shared, on uniform then on equal bytes
color(name) = strstrt(name, "global") ? 0xd62728 : 0x2ca02c
label(name, input) = sprintf("%s (%s)", name[11:], input)
plot csv every ::0::3 using 0:4:(0.6):(color(strcol(1))):xtic(label(strcol(1), strcol(2))) \
         with boxes lc rgb variable, \
     csv every ::0::3 using 0:($4 * 1.6):(strstrt(strcol(1), "shared") ? sprintf("%.0fx", $6) : "") \
         with labels font ",17"

# ---- right: task 2's sweep ----
set origin 0.42, 0
set size 0.58, 0.94
set title "1000 bins, 2^24 values: a fraction p of them in one bin"
unset ylabel
set xrange [-0.3:4.3]
set xtics ("0" 0, "0.5" 1, "0.9" 2, "0.99" 3, "1" 4) norotate font ",17"
set xlabel "p, the hot bin's share of the values"
set bmargin 4
set key center right
hot(s) = strstrt(s, "hot ") == 1 ? real(s[5:]) : NaN
pos(p) = p < 0.25 ? 0 : p < 0.7 ? 1 : p < 0.95 ? 2 : p < 0.995 ? 3 : 4
# the demo's rows 4 to 13: given and privatised, for each p in turn
plot csv every 2::4::12 using (pos(hot(strcol(2)))):4 \
         with linespoints lw 3 pt 7 ps 1.2 lc rgb "#d62728" title "histogram_bins_global (given)", \
     csv every 2::5::13 using (pos(hot(strcol(2)))):4 \
         with linespoints lw 3 pt 7 ps 1.2 lc rgb "#2ca02c" title "histogram_bins (privatised)", \
     csv every 2::5::13 using (pos(hot(strcol(2)))):($4 * 0.62):(sprintf("%.0fx", $6)) \
         with labels font ",17" textcolor rgb "#2ca02c" notitle
unset multiplot
