# 06-warp-aggregation.gp: the demo's table as bars (gnuplot -e "csv='slides/data/06-warp-aggregation.csv'").
# Time per variant: the given kernels (red), the filter aggregated by hand (grey: the compiler
# already aggregates the given one, so they tie), the emitters aggregated per warp and per block
# (green). The label on each bar is the speedup over the row it improves on: the given kernel,
# and emit_warp for emit_block.
if (!exists("csv")) csv = "slides/data/06-warp-aggregation.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,400 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("2^24 elements, blocks of 256 threads, on %s (lower is better)", gpu)
set ylabel "time (ms)"
set logscale y
set yrange [0.05:*]
set offsets 0, 0, graph 0.12, 0
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
set xtics rotate by -30 font ",17" noenhanced
set bmargin 7
unset key
# red: the given kernels; grey: task 1 (the compiler's own aggregation ties it); green: tasks 2, 3
color(name) = strstrt(name, "_atomic") ? 0xd62728 : strstrt(name, "filter_") ? 0x999999 : 0x2ca02c
label(name) = name eq "emit_block" ? "emit_block (x emit_warp)" : name
plot csv using 0:3:(0.6):(color(strcol(1))):xtic(label(strcol(1))) with boxes lc rgb variable, \
     csv using 0:3:(sprintf("%.2fx", $6)) with labels offset 0,0.8 font ",17"
