# Computacao 1, trabalho final: o jogo das 8 rainhas (um exemplo de aluno,
# para os testes do Tabuleiro). Os ataques calculados com conjuntos e
# vetores de direcao em tuplos.

import random

PECAS = 'RDTBC'
RETAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAIS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
SALTOS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


# ---- funcoes prontas do arquivo seu_nome_aqui.py

def outro(jogador):
    return 'segundo' if jogador == 'primeiro' else 'primeiro'


def mostra_jogo(jogo):
    n = jogo['tamanho']
    print('   ' + ' '.join('%2d' % c for c in range(n)))
    for l in range(n - 1, -1, -1):
        print('%2d ' % l + ' '.join(' ' + jogo['ocupadas'].get((l, c), '.') for c in range(n)))
    for j in ('primeiro', 'segundo'):
        print('%s: %s' % (jogo['nomes'][j], ', '.join(jogo[j])))


def roda_jogo(dict_jogadores=None, modalidade='tradicional', interativo=True):
    if dict_jogadores is None:
        dict_jogadores = {'primeiro': jogador_humano, 'segundo': jogador_humano}
    nomes = list(dict_jogadores)
    jogo = cria_jogo(modalidade, nomes[0], nomes[1])
    vez = 'primeiro'
    while True:
        if interativo:
            mostra_jogo(jogo)
        peca, pos = dict_jogadores[jogo['nomes'][vez]](jogo, vez)
        n = jogo['tamanho']
        if peca not in jogo[vez] or not (0 <= pos[0] < n and 0 <= pos[1] < n) or pos in jogo['ocupadas']:
            vencedor = outro(vez)
            break
        faz_jogada(jogo, vez, peca, pos)
        vencedor = jogo_acabou(jogo, vez)
        if vencedor:
            break
        vez = outro(vez)
    if interativo:
        mostra_jogo(jogo)
        print('Venceu', jogo['nomes'][vencedor])
    return jogo['nomes'][vencedor]


def torneio(dict_jogadores, partidas=None):
    if partidas is None:
        partidas = [('tradicional', 1)]
    vitorias = {nome: 0 for nome in dict_jogadores}
    jogos = {nome: 0 for nome in dict_jogadores}
    nomes = list(dict_jogadores)
    for modalidade, vezes in partidas:
        for _ in range(vezes):
            for i, a in enumerate(nomes):
                for b in nomes[i + 1:]:
                    for p, s in ((a, b), (b, a)):
                        v = roda_jogo({p: dict_jogadores[p], s: dict_jogadores[s]}, modalidade, False)
                        vitorias[v] += 1
                        jogos[p] += 1
                        jogos[s] += 1
    return {nome: round(100 * vitorias[nome] / jogos[nome], 1) if jogos[nome] else 0.0 for nome in nomes}


# ---- as funcoes auxiliares

def pos_atacadas_por(tipo_peça, pos_peça, tam_tab=8):
    l, c = pos_peça
    dentro = lambda p: 0 <= p[0] < tam_tab and 0 <= p[1] < tam_tab
    res = set()
    if tipo_peça == 'R':
        res = {(l + dl, c + dc) for dl, dc in RETAS + DIAGONAIS}
    elif tipo_peça == 'C':
        res = {(l + dl, c + dc) for dl, dc in SALTOS}
    else:
        direcoes = {'D': RETAS + DIAGONAIS, 'T': RETAS, 'B': DIAGONAIS}[tipo_peça]
        for dl, dc in direcoes:
            for k in range(1, tam_tab):
                res.add((l + k * dl, c + k * dc))
    return {p for p in res if dentro(p)}


def todas_pos_atacadas(jogo):
    res = set()
    for pos, peca in jogo['ocupadas'].items():
        res |= pos_atacadas_por(peca, pos, jogo['tamanho'])
    return res


def pos_válidas_para(tipo_peça, jogo):
    n = jogo['tamanho']
    ocupadas = set(jogo['ocupadas'])
    proibidas = ocupadas | todas_pos_atacadas(jogo)
    return {(l, c) for l in range(n) for c in range(n)
            if (l, c) not in proibidas and not (pos_atacadas_por(tipo_peça, (l, c), n) & ocupadas)}


def faz_jogada(jogo, jogador, peça, posição):
    jogo[jogador].remove(peça)
    jogo['ocupadas'][posição] = peça


def _alguem_atacado(jogo):
    ocupadas = set(jogo['ocupadas'])
    return any(pos_atacadas_por(p, pos, jogo['tamanho']) & ocupadas for pos, p in jogo['ocupadas'].items())


def _tem_jogada(jogo, jogador):
    return any(pos_válidas_para(p, jogo) for p in set(jogo[jogador]))


def jogo_acabou(jogo, último_a_jogar):
    if _alguem_atacado(jogo):
        return outro(último_a_jogar)
    if not jogo['primeiro'] and not jogo['segundo']:
        return último_a_jogar
    if not _tem_jogada(jogo, outro(último_a_jogar)):
        return último_a_jogar
    return False


def cria_jogo(modalidade='tradicional', nome_primeiro_jogador='primeiro', nome_segundo_jogador='segundo'):
    if modalidade == 'x-random':
        pecas = sorted(random.choice(PECAS) for _ in range(5))
        mãos = (pecas, list(pecas))
    else:
        tamanho, a, b = {'tradicional': (8, 4, 4), 'grande': (20, 10, 10), 'impar': (13, 7, 6), 'ímpar': (13, 7, 6)}[modalidade]
        mãos = (['D'] * a, ['D'] * b)
    tamanho = 8 if modalidade == 'x-random' else tamanho
    return {'tamanho': tamanho, 'primeiro': mãos[0], 'segundo': mãos[1], 'ocupadas': {},
            'nomes': {'primeiro': nome_primeiro_jogador, 'segundo': nome_segundo_jogador}}


# ---- os jogadores

def _jogadas(jogo, jogador):
    """Todas as jogadas validas, por ordem: as pecas da mao e as casas crescentes."""
    vistas = []
    for p in jogo[jogador]:
        if p not in vistas:
            vistas.append(p)
    return [(p, pos) for p in vistas for pos in sorted(pos_válidas_para(p, jogo))]


def jogador_humano(jogo, jogador):
    mostra_jogo(jogo)
    peca = input('Peca: ').strip().upper()
    l, c = input('Casa (linha coluna): ').split()
    return (peca, (int(l), int(c)))


def jogador_apressado(jogo, jogador):
    for p in jogo[jogador]:
        validas = pos_válidas_para(p, jogo)
        if validas:
            return (p, min(validas))
    return (jogo[jogador][0] if jogo[jogador] else 'D', (0, 0))


def jogador_roleta(jogo, jogador):
    return random.sample(_jogadas(jogo, jogador), 1)[0]


def jogador_guloso(jogo, jogador):
    atacadas = todas_pos_atacadas(jogo)
    melhor, valor = None, -1
    for p, pos in _jogadas(jogo, jogador):
        novas = len(pos_atacadas_por(p, pos, jogo['tamanho']) - atacadas)
        if novas > valor:
            melhor, valor = (p, pos), novas
    return melhor


def jogador_asfixiante(jogo, jogador):
    """Questao 11: a jogada que deixa ao adversario menos jogadas validas."""
    melhor, valor = None, None
    for p, pos in _jogadas(jogo, jogador):
        i = jogo[jogador].index(p)
        jogo[jogador].pop(i)
        jogo['ocupadas'][pos] = p
        resta = len(_jogadas(jogo, outro(jogador)))
        del jogo['ocupadas'][pos]
        jogo[jogador].insert(i, p)
        if valor is None or resta < valor:
            melhor, valor = (p, pos), resta
    return melhor
