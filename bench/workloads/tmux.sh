# tmux: a server in a detached session scripted from the command line:
# windows and panes, layouts, resizing, key sending into a shell, copy mode,
# buffers, options, formats, hooks, capture, then kill-server.
set -u
export TERM=xterm-256color
t() { "$PROG" -S "$PWD/sock" -f /dev/null "$@"; }
t new-session -d -s w -x 160 -y 48 sh
t set-option -g history-limit 5000
t set-hook -g after-new-window 'display-message -p hooked'
for i in 1 2 3; do t new-window -t w -n "win$i" sh; done
t split-window -h -t w:1; t split-window -v -t w:1; t select-layout -t w:1 tiled
t resize-pane -t w:1.0 -x 40; t swap-pane -s w:1.0 -t w:1.1; t rotate-window -t w:1
for i in $(seq 1 30); do t send-keys -t w:0 "echo line $i; printf '\\033[1;3${i#?}m color \\033[0m\\n'" Enter; done
t send-keys -t w:2 'seq 1 200' Enter
sleep 1
t copy-mode -t w:2; t send-keys -t w:2 -X search-backward '150'; t send-keys -t w:2 -X begin-selection
t send-keys -t w:2 -X cursor-down; t send-keys -t w:2 -X copy-selection-and-cancel
t set-buffer 'buffer text'; t list-buffers; t show-buffer >/dev/null; t paste-buffer -t w:3
t capture-pane -p -t w:0 -S -50 >/dev/null; t capture-pane -e -p -t w:2 >/dev/null
t list-sessions; t list-windows -a -F '#{session_name}:#{window_index} #{window_name} #{window_panes}'
t list-panes -a -F '#{pane_id} #{pane_width}x#{pane_height} #{?pane_active,active,}'
t display-message -p '#{client_tty} #{host} #{t:start_time} #{=10:session_name}'
t show-options -g >/dev/null; t show-window-options -g >/dev/null; t list-keys >/dev/null; t list-commands >/dev/null
t rename-window -t w:3 renamed; t move-window -s w:3 -t w:9; t kill-pane -t w:1.2; t break-pane -t w:1.1
t new-session -d -s second sh; t switch-client -t second 2>/dev/null; t kill-session -t second
t set-option -w -t w:0 synchronize-panes on; t send-keys -t w:0 'true' Enter
t kill-server
sleep 1
echo done
