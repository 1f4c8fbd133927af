# 2.º projeto de FP: Go (um exemplo de aluno, para os testes do Tabuleiro),
# com uma estrategia propria que o Tabuleiro pode jogar:
#
#   joga_ou_passa(g, p, l): passa quando ja vai a ganhar; senao joga na
#   primeira intersecao (em ordem de leitura) legal que nao seja um olho seu.
#
# Representacoes internas:
#   intersecao: tuplo (coluna, linha), ('C', 4)
#   pedra:      'X' (preta), 'O' (branca) ou '.' (neutra)
#   goban:      dicionario {'n': tamanho, 'pedras': {intersecao: pedra}}

LETRAS = 'ABCDEFGHIJKLMNOPQRS'


def cria_intersecao(col, lin):
    if not (type(col) == str and len(col) == 1 and col in LETRAS and type(lin) == int and 1 <= lin <= 19):
        raise ValueError('cria_intersecao: argumentos invalidos')
    return (col, lin)


def obtem_col(i):
    return i[0]


def obtem_lin(i):
    return i[1]


def eh_intersecao(arg):
    return type(arg) == tuple and len(arg) == 2 and arg[0] in tuple(LETRAS) and type(arg[1]) == int and 1 <= arg[1] <= 19


def intersecoes_iguais(i1, i2):
    return eh_intersecao(i1) and eh_intersecao(i2) and i1 == i2


def intersecao_para_str(i):
    return obtem_col(i) + str(obtem_lin(i))


def str_para_intersecao(s):
    return cria_intersecao(s[0], int(s[1:]))


def _ordem(i):
    return (obtem_lin(i), LETRAS.index(obtem_col(i)))


def obtem_intersecoes_adjacentes(i, l):
    n = obtem_lin(l)
    c, k = LETRAS.index(obtem_col(i)), obtem_lin(i)
    viz = [(c, k - 1), (c - 1, k), (c + 1, k), (c, k + 1)]
    return tuple(cria_intersecao(LETRAS[a], b) for a, b in viz if 0 <= a < n and 1 <= b <= n)


def ordena_intersecoes(t):
    return tuple(sorted(t, key=_ordem))


def cria_pedra_branca():
    return 'O'


def cria_pedra_preta():
    return 'X'


def cria_pedra_neutra():
    return '.'


def eh_pedra(arg):
    return arg in ('O', 'X', '.')


def eh_pedra_branca(p):
    return p == 'O'


def eh_pedra_preta(p):
    return p == 'X'


def pedras_iguais(p1, p2):
    return eh_pedra(p1) and eh_pedra(p2) and p1 == p2


def pedra_para_str(p):
    return p


def eh_pedra_jogador(p):
    return p in ('O', 'X')


def cria_goban_vazio(n):
    if n not in (9, 13, 19) or type(n) != int:
        raise ValueError('cria_goban_vazio: argumento invalido')
    return {'n': n, 'pedras': {}}


def cria_goban(n, ib, ip):
    if n not in (9, 13, 19) or type(n) != int or type(ib) != tuple or type(ip) != tuple:
        raise ValueError('cria_goban: argumentos invalidos')
    g = cria_goban_vazio(n)
    for i in ib + ip:
        if not (eh_intersecao(i) and eh_intersecao_valida(g, i)):
            raise ValueError('cria_goban: argumentos invalidos')
    if len(set(ib + ip)) != len(ib + ip):
        raise ValueError('cria_goban: argumentos invalidos')
    for i in ib:
        coloca_pedra(g, i, cria_pedra_branca())
    for i in ip:
        coloca_pedra(g, i, cria_pedra_preta())
    return g


def cria_copia_goban(g):
    return {'n': g['n'], 'pedras': dict(g['pedras'])}


def obtem_ultima_intersecao(g):
    return cria_intersecao(LETRAS[g['n'] - 1], g['n'])


def obtem_pedra(g, i):
    return g['pedras'].get(i, cria_pedra_neutra())


def obtem_cadeia(g, i):
    cor = obtem_pedra(g, i)
    vistas, fila = {i}, [i]
    while fila:
        x = fila.pop()
        for a in obtem_intersecoes_adjacentes(x, obtem_ultima_intersecao(g)):
            if a not in vistas and pedras_iguais(obtem_pedra(g, a), cor):
                vistas.add(a)
                fila.append(a)
    return ordena_intersecoes(tuple(vistas))


def coloca_pedra(g, i, p):
    g['pedras'][i] = p
    return g


def remove_pedra(g, i):
    g['pedras'].pop(i, None)
    return g


def remove_cadeia(g, t):
    for i in t:
        remove_pedra(g, i)
    return g


def eh_goban(arg):
    return type(arg) == dict and set(arg) == {'n', 'pedras'} and arg['n'] in (9, 13, 19)


def eh_intersecao_valida(g, i):
    return LETRAS.index(obtem_col(i)) < g['n'] and obtem_lin(i) <= g['n']


def gobans_iguais(g1, g2):
    return eh_goban(g1) and eh_goban(g2) and g1 == g2


def goban_para_str(g):
    n = g['n']
    topo = '   ' + ' '.join(LETRAS[:n])
    linhas = [topo]
    for k in range(n, 0, -1):
        casas = ' '.join(pedra_para_str(obtem_pedra(g, (LETRAS[c], k))) for c in range(n))
        linhas.append('{:>2} {} {:>2}'.format(k, casas, k))
    return '\n'.join(linhas + [topo])


def _todas(g):
    return tuple((LETRAS[c], k) for k in range(1, g['n'] + 1) for c in range(g['n']))


def obtem_territorios(g):
    vistas, res = set(), []
    for i in _todas(g):
        if i not in vistas and not eh_pedra_jogador(obtem_pedra(g, i)):
            t = obtem_cadeia(g, i)
            vistas.update(t)
            res.append(t)
    return tuple(res)


def obtem_adjacentes_diferentes(g, t):
    ocupadas = eh_pedra_jogador(obtem_pedra(g, t[0])) if t else False
    res = set()
    for i in t:
        for a in obtem_intersecoes_adjacentes(i, obtem_ultima_intersecao(g)):
            if eh_pedra_jogador(obtem_pedra(g, a)) != ocupadas:
                res.add(a)
    return ordena_intersecoes(tuple(res))


def jogada(g, i, p):
    coloca_pedra(g, i, p)
    for a in obtem_intersecoes_adjacentes(i, obtem_ultima_intersecao(g)):
        q = obtem_pedra(g, a)
        if eh_pedra_jogador(q) and not pedras_iguais(q, p):
            cadeia = obtem_cadeia(g, a)
            if not obtem_adjacentes_diferentes(g, cadeia):
                remove_cadeia(g, cadeia)
    return g


def obtem_pedras_jogadores(g):
    vs = list(g['pedras'].values())
    return (vs.count('O'), vs.count('X'))


def calcula_pontos(g):
    brancas, pretas = obtem_pedras_jogadores(g)
    if brancas + pretas == 0:
        return (0, 0)
    for t in obtem_territorios(g):
        borda = {obtem_pedra(g, i) for i in obtem_adjacentes_diferentes(g, t)}
        if borda == {'O'}:
            brancas += len(t)
        elif borda == {'X'}:
            pretas += len(t)
    return (brancas, pretas)


def eh_jogada_legal(g, i, p, l):
    if not eh_intersecao_valida(g, i) or eh_pedra_jogador(obtem_pedra(g, i)):
        return False
    g2 = jogada(cria_copia_goban(g), i, p)
    if not obtem_adjacentes_diferentes(g2, obtem_cadeia(g2, i)):
        return False  # suicidio
    return not gobans_iguais(g2, l)


def joga_ou_passa(g, p, l):
    """A estrategia: passa quando ja vai a ganhar; senao a primeira
    intersecao legal que nao seja um olho seu (todas as vizinhas suas)."""
    brancas, pretas = calcula_pontos(g)
    meus, dele = (pretas, brancas) if eh_pedra_preta(p) else (brancas, pretas)
    if meus > dele:
        return None
    ultima = obtem_ultima_intersecao(g)
    for i in _todas(g):
        vizinhas = obtem_intersecoes_adjacentes(i, ultima)
        olho = all(pedras_iguais(obtem_pedra(g, a), p) for a in vizinhas)
        if not olho and eh_jogada_legal(g, i, p, l):
            return i
    return None
