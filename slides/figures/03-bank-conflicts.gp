# 03-bank-conflicts.gp: the demo's probe and tile Gram matrices (gnuplot -e "csv='slides/data/03-bank-conflicts.csv'").
# A CSV whose gpu line says "to be measured" (not yet run on a GPU) gives a placeholder.
if (!exists("csv")) csv = "slides/data/03-bank-conflicts.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
rows = system("sed -n 's/^# lab: .* of \\([0-9]*\\) rows of.*/\\1/p' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
if (gpu eq "to be measured") {
    unset border; unset tics; unset key
    set label 1 "03-bank-conflicts: to be measured" at graph 0.5, 0.6 center font ",18"
    set label 2 "make figures on a GPU (or the reference demo with --csv " . csv . ", then make plots)" \
        at graph 0.5, 0.45 center
    plot [0:1] [0:1] NaN notitle
    exit
}
set datafile separator ","
set multiplot layout 1,2 title sprintf("Measured on %s", gpu)
set grid ytics
unset key
set style fill solid 0.85 border -1
set boxwidth 0.6
set xtics rotate by -25 font ",17"
set title "the probe: a warp's shared reads, time against the row pattern"
set ylabel "slowdown (x)"
set logscale y
set yrange [0.5:128]
plot "< grep '^probe' " . csv using 0:6:(0.6):($3 > 1 ? 0xd62728 : 0x2ca02c):xtic(2) with boxes lc rgb variable, \
     "< grep '^probe' " . csv using 0:6:(sprintf("%.1fx (%d)", $6, $3)) with labels offset 0,0.8 font ",17"
unset logscale y
set rmargin 12
set ytics 1
set title sprintf("tile Gram matrices of %s rows of 32: time", rows)
set ylabel "ms"
set autoscale y
set yrange [0:5.5]
set offsets 0, 0, graph 0.12, 0
plot "< grep '^tile gram' " . csv using 0:4:(0.6):(int($0) % 2 ? 0x2ca02c : 0xd62728):xtic(2) with boxes lc rgb variable, \
     "< grep '^tile gram' " . csv using 0:4:(sprintf("%.3f ms", $4)) with labels offset 0,0.8 font ",17"
unset multiplot
