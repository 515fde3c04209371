# facet.bash — bash completion for facet and facet-query.
#   bash: source src/query/bin/facet.bash   (or copy it to /etc/bash_completion.d/)
#   zsh:  autoload -U +X bashcompinit && bashcompinit && source src/query/bin/facet.bash
#         (zsh's bash-completion emulation; not tried: this machine has no zsh)
# Completes subcommands, query verbs, options and their values; function
# names are completed from the catalog given with --catalog (sqlite3 needed).

_facet_catalog_of() {
	local i
	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		if [[ ${COMP_WORDS[i]} == --catalog ]]; then echo "${COMP_WORDS[i+1]}"; return; fi
		if [[ ${COMP_WORDS[i]} == --catalog=* ]]; then echo "${COMP_WORDS[i]#--catalog=}"; return; fi
	done
}

_facet_query_words() {   # $1: index of the verb in COMP_WORDS
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local verbs="defs at callers callees uses reach closure slice externals indirect-targets resolution-candidates explain inventory"
	local opts="--catalog --graph --format --include-overlay --min-confidence --overlay --emit-module --limit --in --out --help"
	case $prev in
	--catalog) COMPREPLY=($(compgen -f -X '!*.facet' -- "$cur") $(compgen -d -- "$cur")); return ;;
	--overlay|--emit-module) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--graph) COMPREPLY=($(compgen -W "direct andersen r0 rulesonly rplus rpm" -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W "text json" -- "$cur")); return ;;
	--min-confidence) COMPREPLY=($(compgen -W "high medium low" -- "$cur")); return ;;
	esac
	if ((COMP_CWORD == $1)); then COMPREPLY=($(compgen -W "$verbs overlay" -- "$cur")); return; fi
	if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
	if [[ ${COMP_WORDS[$1]} == overlay ]]; then COMPREPLY=($(compgen -W "record list" -- "$cur")); return; fi
	local cat
	cat=$(_facet_catalog_of)
	if [[ -n $cat && -r $cat ]] && command -v sqlite3 >/dev/null; then
		local like=${cur//\'/}
		COMPREPLY=($(sqlite3 "file:$cat?mode=ro" "SELECT name FROM functions WHERE name LIKE '${like}%' LIMIT 200" 2>/dev/null))
	fi
}

_facet() {
	local cur=${COMP_WORDS[COMP_CWORD]}
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "build query overlay callgraph stats pts dump explain fields rederive trace score mcp oo --help --version" -- "$cur"))
		return
	fi
	case ${COMP_WORDS[1]} in
	query) _facet_query_words 2 ;;
	overlay)
		if ((COMP_CWORD == 2)); then COMPREPLY=($(compgen -W "record list" -- "$cur")); else _facet_query_words 99; fi ;;
	build)
		if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "-o --tau --no-verify --help" -- "$cur"));
		else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
	*) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}

_facet_query() { _facet_query_words 1; }

complete -F _facet facet
complete -F _facet_query facet-query
