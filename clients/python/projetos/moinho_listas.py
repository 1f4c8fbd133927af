# 2.º projeto de FP: Jogo do Moinho (um exemplo de aluno, para os testes do Tabuleiro).
#
# Representacoes internas:
#   posicao:   lista [coluna, linha] de duas cadeias de caracteres
#   peca:      lista com uma cadeia de caracteres, ['X'], ['O'] ou [' ']
#   tabuleiro: lista de 3 listas (as linhas 1, 2, 3) de cadeias 'X', 'O', ' '

COLS, LINS = 'abc', '123'


def cria_posicao(c, l):
    if not (type(c) == str and type(l) == str and len(c) == 1 and len(l) == 1 and c in COLS and l in LINS):
        raise ValueError('cria_posicao: argumentos invalidos')
    return [c, l]


def cria_copia_posicao(p):
    return [p[0], p[1]]


def obter_pos_c(p):
    return p[0]


def obter_pos_l(p):
    return p[1]


def eh_posicao(arg):
    return type(arg) == list and len(arg) == 2 and arg[0] in tuple(COLS) and arg[1] in tuple(LINS)


def posicoes_iguais(p1, p2):
    return eh_posicao(p1) and eh_posicao(p2) and p1 == p2


def posicao_para_str(p):
    return obter_pos_c(p) + obter_pos_l(p)


def _todas():
    return tuple(cria_posicao(c, l) for l in LINS for c in COLS)


def _ligadas(p, q):
    dc = abs(COLS.index(obter_pos_c(p)) - COLS.index(obter_pos_c(q)))
    dl = abs(LINS.index(obter_pos_l(p)) - LINS.index(obter_pos_l(q)))
    if (dc, dl) in ((0, 1), (1, 0)):
        return True
    # as diagonais passam todas pelo centro
    centro = cria_posicao('b', '2')
    return dc == dl == 1 and (posicoes_iguais(p, centro) or posicoes_iguais(q, centro))


def obter_posicoes_adjacentes(p):
    return tuple(q for q in _todas() if _ligadas(p, q))


def cria_peca(s):
    if s not in ('X', 'O', ' ') or type(s) != str:
        raise ValueError('cria_peca: argumento invalido')
    return [s]


def cria_copia_peca(j):
    return [j[0]]


def eh_peca(arg):
    return type(arg) == list and len(arg) == 1 and arg[0] in ('X', 'O', ' ')


def pecas_iguais(j1, j2):
    return eh_peca(j1) and eh_peca(j2) and j1 == j2


def peca_para_str(j):
    return '[' + j[0] + ']'


def peca_para_inteiro(j):
    return {'X': 1, 'O': -1, ' ': 0}[j[0]]


def cria_tabuleiro():
    return [[' '] * 3 for _ in range(3)]


def cria_copia_tabuleiro(t):
    return [l[:] for l in t]


def obter_peca(t, p):
    return cria_peca(t[LINS.index(obter_pos_l(p))][COLS.index(obter_pos_c(p))])


def obter_vetor(t, s):
    if s in COLS:
        return tuple(obter_peca(t, cria_posicao(s, l)) for l in LINS)
    return tuple(obter_peca(t, cria_posicao(c, s)) for c in COLS)


def coloca_peca(t, j, p):
    t[LINS.index(obter_pos_l(p))][COLS.index(obter_pos_c(p))] = j[0]
    return t


def remove_peca(t, p):
    return coloca_peca(t, cria_peca(' '), p)


def move_peca(t, p1, p2):
    j = obter_peca(t, p1)
    return coloca_peca(remove_peca(t, p1), j, p2)


def eh_tabuleiro(arg):
    if not (type(arg) == list and len(arg) == 3 and all(type(l) == list and len(l) == 3 for l in arg)):
        return False
    if not all(v in ('X', 'O', ' ') for l in arg for v in l):
        return False
    x = sum(l.count('X') for l in arg)
    o = sum(l.count('O') for l in arg)
    if x > 3 or o > 3 or abs(x - o) > 1:
        return False
    return len(_ganhadores(arg)) < 2


def eh_posicao_livre(t, p):
    return pecas_iguais(obter_peca(t, p), cria_peca(' '))


def tabuleiros_iguais(t1, t2):
    return eh_tabuleiro(t1) and eh_tabuleiro(t2) and t1 == t2


def tabuleiro_para_str(t):
    linha = lambda l: l + ' ' + '-'.join(peca_para_str(obter_peca(t, cria_posicao(c, l))) for c in COLS)
    return '\n'.join(('   a   b   c', linha('1'), '   | \\ | / |', linha('2'), '   | / | \\ |', linha('3')))


def tuplo_para_tabuleiro(tup):
    t = cria_tabuleiro()
    for i, l in enumerate(LINS):
        for k, c in enumerate(COLS):
            coloca_peca(t, cria_peca({1: 'X', -1: 'O', 0: ' '}[tup[i][k]]), cria_posicao(c, l))
    return t


def _ganhadores(t):
    vetores = [obter_vetor(t, s) for s in COLS + LINS]
    return {v[0][0] for v in vetores if v[0] == v[1] == v[2] and v[0] != [' ']}


def obter_ganhador(t):
    g = _ganhadores(t)
    return cria_peca(g.pop() if g else ' ')


def obter_posicoes_livres(t):
    return obter_posicoes_jogador(t, cria_peca(' '))


def obter_posicoes_jogador(t, j):
    return tuple(p for p in _todas() if pecas_iguais(obter_peca(t, p), j))


def _movimentos(t, j):
    return tuple((p, q) for p in obter_posicoes_jogador(t, j)
                 for q in obter_posicoes_adjacentes(p) if eh_posicao_livre(t, q))


def obter_movimento_manual(t, j):
    if len(obter_posicoes_jogador(t, j)) < 3:
        s = input('Turno do jogador. Escolha uma posicao: ')
        if len(s) == 2 and s[0] in COLS and s[1] in LINS and eh_posicao_livre(t, cria_posicao(s[0], s[1])):
            return (cria_posicao(s[0], s[1]),)
    else:
        s = input('Turno do jogador. Escolha um movimento: ')
        if len(s) == 4 and s[0] in COLS and s[2] in COLS and s[1] in LINS and s[3] in LINS:
            p, q = cria_posicao(s[0], s[1]), cria_posicao(s[2], s[3])
            movs = _movimentos(t, j)
            if [p, q] in [[a, b] for a, b in movs]:
                return (p, q)
            if not movs and posicoes_iguais(p, q) and pecas_iguais(obter_peca(t, p), j):
                return (p, q)
    raise ValueError('obter_movimento_manual: escolha invalida')


def _outro(j):
    return cria_peca('O' if peca_para_inteiro(j) == 1 else 'X')


def _completa(t, p, j):
    t2 = coloca_peca(cria_copia_tabuleiro(t), j, p)
    return pecas_iguais(obter_ganhador(t2), j)


def _colocacao(t, j):
    livres = obter_posicoes_livres(t)
    for quem in (j, _outro(j)):
        for p in livres:
            if _completa(t, p, quem):
                return p
    centro = cria_posicao('b', '2')
    if eh_posicao_livre(t, centro):
        return centro
    for p in livres:
        if obter_pos_c(p) != 'b' and obter_pos_l(p) != '2':
            return p
    return livres[0]


def _minimax(t, j, prof, seq):
    g = peca_para_inteiro(obter_ganhador(t))
    if g != 0 or prof == 0:
        return g, seq
    melhor, melhor_seq = peca_para_inteiro(_outro(j)), None
    for p, q in _movimentos(t, j):
        novo = move_peca(cria_copia_tabuleiro(t), p, q)
        v, s = _minimax(novo, _outro(j), prof - 1, seq + [(p, q)])
        if melhor_seq is None or (peca_para_inteiro(j) == 1 and v > melhor) or (peca_para_inteiro(j) == -1 and v < melhor):
            melhor, melhor_seq = v, s
    return melhor, melhor_seq


def obter_movimento_auto(t, j, lvl):
    if len(obter_posicoes_jogador(t, j)) < 3:
        return (_colocacao(t, j),)
    movs = _movimentos(t, j)
    if not movs:
        p = obter_posicoes_jogador(t, j)[0]
        return (p, p)
    if lvl == 'facil':
        return movs[0]
    _, seq = _minimax(t, j, 1 if lvl == 'normal' else 5, [])
    return seq[0]


def moinho(jog, lvl):
    if jog not in ('[X]', '[O]') or lvl not in ('facil', 'normal', 'dificil'):
        raise ValueError('moinho: argumentos invalidos')
    print('Bem-vindo ao JOGO DO MOINHO. Nivel de dificuldade {}.'.format(lvl))
    t = cria_tabuleiro()
    print(tabuleiro_para_str(t))
    humano = cria_peca(jog[1])
    vez = cria_peca('X')
    while pecas_iguais(obter_ganhador(t), cria_peca(' ')):
        if pecas_iguais(vez, humano):
            m = obter_movimento_manual(t, vez)
        else:
            print('Turno do computador ({}):'.format(lvl))
            m = obter_movimento_auto(t, vez, lvl)
        if len(m) == 1:
            coloca_peca(t, vez, m[0])
        else:
            move_peca(t, m[0], m[1])
        print(tabuleiro_para_str(t))
        vez = _outro(vez)
    return peca_para_str(obter_ganhador(t))
