"""Os exemplos impressos dos enunciados, como testes de cada projeto de exemplo.

Every printed example of the orbito, morris (moinho) and queens (rainhas)
assignments (the seeds in ../shared/seeds), as tests of each example
project in this directory: run with

    python3 -m unittest discover -s clients/python/projetos -v

The texts were converted from PDF: the transcripts' '0' is the letter 'O',
typos such as cria_pecas are cria_peca, and the spaces the conversion lost
are put back where the board's columns line up (the header's letters and
the links over the pieces).
"""

import builtins
import contextlib
import importlib.util
import io
import os
import unittest

AQUI = os.path.dirname(os.path.abspath(__file__))


def carrega(nome):
    spec = importlib.util.spec_from_file_location('projeto_' + nome, os.path.join(AQUI, nome + '.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@contextlib.contextmanager
def consola(respostas):
    """stdout capturado, e input() que responde com respostas, mostrando-as
    como numa consola."""
    out = io.StringIO()
    fila = list(respostas)
    antigo = builtins.input

    def falso(prompt=''):
        r = fila.pop(0)
        out.write(prompt + r + '\n')
        return r

    builtins.input = falso
    try:
        with contextlib.redirect_stdout(out):
            yield out
    finally:
        builtins.input = antigo


# ---------------------------------------------------------------- orbito

def orbito_str(linhas):
    """O tabuleiro de Orbito como tabuleiro_para_str o escreve."""
    m = len(linhas)
    res = ['    ' + '   '.join('abcdefghij'[:m])]
    for y, linha in enumerate(linhas):
        if y:
            res.append('    ' + '   '.join('|' * m))
        res.append('{:02d} '.format(y + 1) + '-'.join('[' + (' ' if c == '.' else c) + ']' for c in linha))
    return '\n'.join(res)


# The three transcripts of the orbito assignment: (mode, player, turns,
# result line, return value); a turn is (who, inputs, board after it).
ORBITO_JOGOS = [
    ('facil', 'O', [
        ('bot', [], ['....', '....', '.X..', '....']),
        ('eu', ['d1'], ['..O.', '....', '..X.', '....']),
        ('bot', [], ['.O..', '..X.', '.X..', '....']),
        ('eu', ['c1'], ['OO..', '.X..', '..X.', '....']),
        ('bot', [], ['O...', 'OXX.', '.X..', '....']),
        ('eu', ['b1'], ['O...', 'OX..', 'OXX.', '....']),
        ('bot', [], ['....', 'OXX.', 'OXX.', 'O...']),
        ('eu', ['b4'], ['....', '.XX.', 'OXX.', 'OOO.']),
        ('bot', [], ['....', 'XXX.', '.XX.', 'OOOO']),
    ], 'VITORIA', -1),
    ('normal', 'X', [
        ('eu', ['c2'], ['....', '.X..', '....', '....']),
        ('bot', [], ['....', '.O..', '.X..', '....']),
        ('eu', ['a3'], ['....', '....', '.OX.', 'X...']),
        ('bot', [], ['....', '..X.', '.OO.', '.X..']),
        ('eu', ['b2'], ['....', '.XO.', '.XO.', '..X.']),
        ('bot', [], ['....', 'OOO.', '.XX.', '...X']),
        ('eu', ['a2', 'a3'], ['....', '.OX.', 'OOXX', 'X...']),
        ('bot', [], ['....', '.XXX', 'OOO.', 'OX..']),
        ('eu', ['a2'], ['...X', '.XO.', 'XXO.', 'OOX.']),
        ('bot', [], ['..X.', 'OOO.', '.XX.', 'XOOX']),
        ('eu', ['b1'], ['XX..', '.OX.', 'OOXX', '.XOO']),
        ('bot', [], ['X...', 'XXXX', 'OOOO', 'O.XO']),
    ], 'EMPATE', 0),
    ('2jogadores', 'X', [
        ('X', ['a1'], ['....', 'X...', '....', '....']),
        ('O', ['b2'], ['....', '....', 'XO..', '....']),
        ('X', ['a4'], ['....', '....', '..O.', 'XX..']),
        ('O', ['c4'], ['....', '..O.', '....', '.XXO']),
        ('X', ['a4'], ['....', '.O..', '...O', '.XXX']),
        ('O', ['b3'], ['....', '...O', '.OOX', '..XX']),
        ('X', ['b4'], ['...O', '..OX', '..OX', '..XX']),
        ('O', ['a3'], ['..OX', '.OOX', '...X', 'O..X']),
    ], "VITORIA DO JOGADOR 'X'", 1),
]

ORBITO_EXEMPLO = "    a   b   c   d\n01 [ ]-[X]-[O]-[ ]\n    |   |   |   |\n02 [ ]-[ ]-[O]-[O]\n    |   |   |   |\n03 [X]-[X]-[X]-[O]\n    |   |   |   |\n04 [X]-[ ]-[ ]-[O]"


class Orbito:
    """The orbito assignment's examples; a subclass names the project."""
    projeto = None

    @classmethod
    def setUpClass(cls):
        cls.m = carrega(cls.projeto)

    def posicoes(self, *ss):
        return tuple(self.m.str_para_posicao(s) for s in ss)

    def strs(self, ps):
        return tuple(self.m.posicao_para_str(p) for p in ps)

    def exemplo(self):
        ib = self.posicoes('c1', 'c2', 'd2', 'd3', 'd4')
        ip = self.posicoes('a3', 'a4', 'b1', 'b3', 'c3')
        return self.m.cria_tabuleiro(2, ip, ib)

    def test_posicao(self):
        m = self.m
        with self.assertRaisesRegex(ValueError, '^cria_posicao: argumentos invalidos$'):
            m.cria_posicao('a', 21)
        p1, p2 = m.cria_posicao('a', 2), m.cria_posicao('b', 3)
        self.assertFalse(m.posicoes_iguais(p1, p2))
        self.assertEqual(m.posicao_para_str(p2), 'b3')
        self.assertTrue(m.posicoes_iguais(p1, m.str_para_posicao('a2')))
        self.assertEqual(self.strs(m.obtem_posicoes_adjacentes(p1, 2, False)), ('a1', 'b2', 'a3'))
        self.assertEqual(self.strs(m.obtem_posicoes_adjacentes(p1, 2, True)), ('a1', 'b1', 'b2', 'b3', 'a3'))
        tup = (m.cria_posicao('a', 1), m.cria_posicao('a', 3), m.cria_posicao('b', 1), m.cria_posicao('b', 2))
        self.assertEqual(self.strs(m.ordena_posicoes(tup, 2)), ('b2', 'a1', 'b1', 'a3'))

    def test_pedra(self):
        m = self.m
        b, p = m.cria_pedra_branca(), m.cria_pedra_preta()
        self.assertTrue(m.eh_pedra(b))
        self.assertFalse(m.pedras_iguais(b, p))
        self.assertEqual((m.pedra_para_str(b), m.pedra_para_str(p)), ('O', 'X'))
        self.assertFalse(m.eh_pedra_jogador(m.cria_pedra_neutra()))
        self.assertEqual((m.pedra_para_int(b), m.pedra_para_int(p)), (-1, 1))

    def test_tabuleiro(self):
        m = self.m
        with self.assertRaisesRegex(ValueError, '^cria_tabuleiro_vazio: argumento invalido$'):
            m.cria_tabuleiro_vazio(12)
        t = m.cria_tabuleiro_vazio(2)
        self.assertEqual(m.pedra_para_str(m.obtem_pedra(t, m.cria_posicao('c', 2))), ' ')
        b, p = m.cria_pedra_branca(), m.cria_pedra_preta()
        ib = self.posicoes('c1', 'c2', 'd2', 'd3', 'd4')
        ip = self.posicoes('a3', 'a4', 'b1', 'b3', 'c3')
        for i in ib:
            m.coloca_pedra(t, i, b)
        for i in ip:
            m.coloca_pedra(t, i, p)
        self.assertEqual(m.tabuleiro_para_str(t), ORBITO_EXEMPLO)
        par = lambda l: tuple((m.posicao_para_str(c), m.pedra_para_str(v)) for c, v in l)
        c3 = m.cria_posicao('c', 3)
        self.assertEqual(par(m.obtem_linha_vertical(t, c3)), (('c1', 'O'), ('c2', 'O'), ('c3', 'X'), ('c4', ' ')))
        self.assertEqual(par(m.obtem_linha_horizontal(t, c3)), (('a3', 'X'), ('b3', 'X'), ('c3', 'X'), ('d3', 'O')))
        diag, anti = m.obtem_linhas_diagonais(t, c3)
        self.assertEqual(par(diag), (('a1', ' '), ('b2', ' '), ('c3', 'X'), ('d4', 'O')))
        self.assertEqual(par(anti), (('b4', ' '), ('c3', 'X'), ('d2', 'O')))
        self.assertEqual(self.strs(m.obtem_posicoes_pedra(t, p)), ('b3', 'c3', 'b1', 'a3', 'a4'))
        self.assertFalse(m.verifica_linha_pedras(t, m.cria_posicao('d', 1), b, 3))
        self.assertTrue(m.verifica_linha_pedras(t, m.cria_posicao('d', 2), b, 3))
        t2 = m.cria_tabuleiro(2, ip, ib)
        self.assertTrue(m.tabuleiros_iguais(t, t2))
        self.assertEqual(m.tabuleiro_para_str(m.roda_tabuleiro(t)), orbito_str(['XO.O', '.OXO', '..XO', 'XX..']))
        self.assertFalse(m.tabuleiros_iguais(t, t2))

    def test_eh_vencedor_e_fim(self):
        m = self.m
        t = self.exemplo()
        b, p = m.cria_pedra_branca(), m.cria_pedra_preta()
        self.assertEqual((m.eh_vencedor(t, p), m.eh_vencedor(t, b)), (False, False))
        m.coloca_pedra(t, m.cria_posicao('d', 1), b)
        self.assertEqual((m.eh_vencedor(t, p), m.eh_vencedor(t, b)), (False, True))
        self.assertFalse(m.eh_fim_jogo(m.cria_tabuleiro_vazio(2)))
        self.assertTrue(m.eh_fim_jogo(t))

    def test_escolhe_movimento_manual(self):
        m = self.m
        t = self.exemplo()
        self.assertEqual(m.tabuleiro_para_str(t), ORBITO_EXEMPLO)
        with consola(['d1']) as out:
            move = m.escolhe_movimento_manual(t)
        self.assertEqual(out.getvalue(), 'Escolha uma posicao livre:d1\n')
        self.assertEqual(m.posicao_para_str(move), 'd1')
        self.assertEqual(m.tabuleiro_para_str(t), ORBITO_EXEMPLO)
        with consola(['c1', 'c3', 'c4']) as out:
            move = m.escolhe_movimento_manual(t)
        self.assertEqual(out.getvalue().count('Escolha uma posicao livre:'), 3)
        self.assertEqual(m.posicao_para_str(move), 'c4')

    def test_escolhe_movimento_auto(self):
        m = self.m
        t = self.exemplo()
        auto = lambda lvl: tuple(m.posicao_para_str(m.escolhe_movimento_auto(t, j, lvl))
                                 for j in (m.cria_pedra_preta(), m.cria_pedra_branca()))
        self.assertEqual(auto('facil'), ('b2', 'b2'))
        self.assertEqual(auto('normal'), ('d1', 'c4'))
        self.assertEqual(m.tabuleiro_para_str(t), ORBITO_EXEMPLO)
        m.roda_tabuleiro(m.roda_tabuleiro(t))
        self.assertEqual(m.tabuleiro_para_str(t), orbito_str(['O.OO', 'XXXO', '.O..', '.XX.']))
        self.assertEqual(auto('normal'), ('d3', 'b1'))

    def test_orbito(self):
        m = self.m
        with self.assertRaisesRegex(ValueError, '^orbito: argumentos invalidos$'):
            m.orbito(2, 'dificil', 'X')
        for modo, jog, turnos, fim, valor in ORBITO_JOGOS:
            with self.subTest(modo=modo):
                esperado = ['Bem-vindo ao ORBITO-2.']
                if modo == '2jogadores':
                    esperado.append('Jogo para dois jogadores.')
                else:
                    esperado += ['Jogo contra o computador ({}).'.format(modo), "O jogador joga com '{}'.".format(jog)]
                esperado.append(orbito_str(['....'] * 4))
                respostas = []
                for quem, entradas, tab in turnos:
                    if quem == 'bot':
                        esperado.append('Turno do computador ({}):'.format(modo))
                    else:
                        esperado.append('Turno do jogador.' if quem == 'eu' else "Turno do jogador '{}'.".format(quem))
                        esperado += ['Escolha uma posicao livre:' + e for e in entradas]
                        respostas += entradas
                    esperado.append(orbito_str(tab))
                esperado.append(fim)
                with consola(respostas) as out:
                    r = m.orbito(2, modo, jog)
                self.assertEqual(out.getvalue(), '\n'.join(esperado) + '\n')
                self.assertEqual(r, valor)


class OrbitoListas(Orbito, unittest.TestCase):
    projeto = 'orbito_listas'


class OrbitoDicionario(Orbito, unittest.TestCase):
    projeto = 'orbito_dicionario'


# ---------------------------------------------------------------- moinho

def moinho_str(linhas):
    """O tabuleiro do moinho como tabuleiro_para_str o escreve."""
    casa = lambda c: '[' + (' ' if c == '.' else c) + ']'
    l = ['{} {}'.format(i + 1, '-'.join(casa(c) for c in linha)) for i, linha in enumerate(linhas)]
    return '\n'.join(('   a   b   c', l[0], '   | \\ | / |', l[1], '   | / | \\ |', l[2]))


# The moinho('[X]', 'facil') transcript: (who, input, board after it).
MOINHO_JOGO = [
    ('eu', 'a2', ['...', 'X..', '...']),
    ('bot', '', ['...', 'XO.', '...']),
    ('eu', 'a1', ['X..', 'XO.', '...']),
    ('bot', '', ['X..', 'XO.', 'O..']),
    ('eu', 'c1', ['X.X', 'XO.', 'O..']),
    ('bot', '', ['XOX', 'XO.', 'O..']),
    ('eu', 'c1c2', ['XO.', 'XOX', 'O..']),
    ('bot', '', ['X.O', 'XOX', 'O..']),
    ('eu', 'a1b1', ['.XO', 'XOX', 'O..']),
    ('bot', '', ['OXO', 'X.X', 'O..']),
    ('eu', 'b1b2', ['O.O', 'XXX', 'O..']),
]


class Moinho:
    """The moinho assignment's examples; a subclass names the project."""
    projeto = None

    @classmethod
    def setUpClass(cls):
        cls.m = carrega(cls.projeto)

    def strs(self, ps):
        return tuple(self.m.posicao_para_str(p) for p in ps)

    def test_posicao(self):
        m = self.m
        with self.assertRaisesRegex(ValueError, '^cria_posicao: argumentos invalidos$'):
            m.cria_posicao('a', '4')
        p1, p2 = m.cria_posicao('a', '2'), m.cria_posicao('b', '3')
        self.assertFalse(m.posicoes_iguais(p1, p2))
        self.assertEqual(m.posicao_para_str(p1), 'a2')
        self.assertEqual(self.strs(m.obter_posicoes_adjacentes(p2)), ('b2', 'a3', 'c3'))

    def test_peca(self):
        m = self.m
        with self.assertRaisesRegex(ValueError, '^cria_peca: argumento invalido$'):
            m.cria_peca('x')
        j1, j2 = m.cria_peca('X'), m.cria_peca('O')
        self.assertFalse(m.pecas_iguais(j1, j2))
        self.assertEqual(m.peca_para_str(j1), '[X]')
        self.assertEqual(m.peca_para_inteiro(m.cria_peca(' ')), 0)

    def test_tabuleiro(self):
        m = self.m
        t = m.cria_tabuleiro()
        self.assertEqual(m.tabuleiro_para_str(m.coloca_peca(t, m.cria_peca('X'), m.cria_posicao('a', '1'))),
                         '   a   b   c\n1 [X]-[ ]-[ ]\n   | \\ | / |\n2 [ ]-[ ]-[ ]\n   | / | \\ |\n3 [ ]-[ ]-[ ]')
        self.assertEqual(m.tabuleiro_para_str(t), moinho_str(['X..', '...', '...']))
        m.coloca_peca(t, m.cria_peca('O'), m.cria_posicao('b', '2'))
        self.assertEqual(m.tabuleiro_para_str(t), moinho_str(['X..', '.O.', '...']))
        m.move_peca(t, m.cria_posicao('a', '1'), m.cria_posicao('b', '1'))
        self.assertEqual(m.tabuleiro_para_str(t), moinho_str(['.X.', '.O.', '...']))
        t = m.tuplo_para_tabuleiro(((0, 1, -1), (-0, 1, -1), (1, 0, -1)))
        self.assertEqual(m.tabuleiro_para_str(t), moinho_str(['.XO', '.XO', 'X.O']))
        self.assertEqual(m.peca_para_str(m.obter_ganhador(t)), '[O]')
        self.assertEqual(self.strs(m.obter_posicoes_livres(t)), ('a1', 'a2', 'b3'))
        self.assertEqual(tuple(m.peca_para_str(p) for p in m.obter_vetor(t, 'a')), ('[ ]', '[ ]', '[X]'))
        self.assertEqual(tuple(m.peca_para_str(p) for p in m.obter_vetor(t, '2')), ('[ ]', '[X]', '[O]'))

    def test_obter_movimento_manual(self):
        m = self.m
        with consola(['a1']):
            mv = m.obter_movimento_manual(m.cria_tabuleiro(), m.cria_peca('X'))
        self.assertEqual(m.posicao_para_str(mv[0]), 'a1')
        t = m.tuplo_para_tabuleiro(((0, 1, -1), (1, -1, 0), (1, -1, 0)))
        with consola(['b1a1']) as out:
            mv = m.obter_movimento_manual(t, m.cria_peca('X'))
        self.assertEqual(out.getvalue(), 'Turno do jogador. Escolha um movimento: b1a1\n')
        self.assertEqual(self.strs(mv), ('b1', 'a1'))
        with consola(['a2a1']):
            with self.assertRaisesRegex(ValueError, '^obter_movimento_manual: escolha invalida$'):
                m.obter_movimento_manual(t, m.cria_peca('O'))

    def test_obter_movimento_auto(self):
        m = self.m
        auto = lambda t, lvl: self.strs(m.obter_movimento_auto(t, m.cria_peca('X'), lvl))
        self.assertEqual(auto(m.cria_tabuleiro(), 'facil'), ('b2',))
        t = m.tuplo_para_tabuleiro(((1, 0, -1), (0, 1, -1), (1, -1, 0)))
        self.assertEqual(auto(t, 'facil'), ('a1', 'b1'))
        self.assertEqual(auto(t, 'normal'), ('b2', 'a2'))
        t = m.tuplo_para_tabuleiro(((1, -1, -1), (-1, 1, 0), (0, 0, 1)))
        self.assertEqual(auto(t, 'normal'), ('b2', 'c2'))
        self.assertEqual(auto(t, 'dificil'), ('c3', 'c2'))

    def test_moinho(self):
        m = self.m
        with self.assertRaisesRegex(ValueError, '^moinho: argumentos invalidos$'):
            m.moinho('X', 'facil')
        esperado = ['Bem-vindo ao JOGO DO MOINHO. Nivel de dificuldade facil.', moinho_str(['...'] * 3)]
        respostas = []
        for quem, entrada, tab in MOINHO_JOGO:
            if quem == 'bot':
                esperado.append('Turno do computador (facil):')
            else:
                pergunta = 'uma posicao' if len(entrada) == 2 else 'um movimento'
                esperado.append('Turno do jogador. Escolha {}: {}'.format(pergunta, entrada))
                respostas.append(entrada)
            esperado.append(moinho_str(tab))
        with consola(respostas) as out:
            r = m.moinho('[X]', 'facil')
        self.assertEqual(out.getvalue(), '\n'.join(esperado) + '\n')
        self.assertEqual(r, '[X]')


class MoinhoListas(Moinho, unittest.TestCase):
    projeto = 'moinho_listas'


class MoinhoClasses(Moinho, unittest.TestCase):
    projeto = 'moinho_classes'


# ---------------------------------------------------------------- rainhas

def jogo_rainhas(primeiro, segundo, ocupadas):
    return {'tamanho': 8, 'primeiro': list(primeiro), 'segundo': list(segundo), 'ocupadas': dict(ocupadas),
            'nomes': {'primeiro': 'Hugo', 'segundo': 'Bernardo'}}


class Rainhas:
    """The queens assignment's examples; a subclass names the project."""
    projeto = None

    @classmethod
    def setUpClass(cls):
        cls.m = carrega(cls.projeto)

    def test_pos_atacadas_por(self):
        self.assertEqual(self.m.pos_atacadas_por('D', (2, 3), 8), {
            (0, 1), (2, 4), (1, 2), (2, 1), (2, 7), (4, 3), (3, 4), (7, 3), (6, 7),
            (0, 5), (2, 2), (3, 2), (2, 5), (1, 3), (4, 1), (0, 3), (2, 0), (1, 4),
            (4, 5), (3, 3), (2, 6), (5, 0), (5, 6), (5, 3), (6, 3)})
        self.assertEqual(self.m.pos_atacadas_por('C', (0, 5), 8), {(1, 7), (1, 3), (2, 4), (2, 6)})

    def test_todas_pos_atacadas(self):
        jogo = jogo_rainhas('DDD', 'DDD', {(4, 4): 'D', (3, 0): 'D'})
        self.assertEqual(self.m.todas_pos_atacadas(jogo), {
            (0, 0), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (1, 4), (1, 7), (2, 0),
            (2, 1), (2, 2), (2, 4), (2, 6), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5),
            (3, 6), (3, 7), (4, 0), (4, 1), (4, 2), (4, 3), (4, 5), (4, 6), (4, 7),
            (5, 0), (5, 2), (5, 3), (5, 4), (5, 5), (6, 0), (6, 2), (6, 3), (6, 4),
            (6, 6), (7, 0), (7, 1), (7, 4), (7, 7)})

    def test_pos_validas_para(self):
        jogo = jogo_rainhas('DRRT', 'DDRT', {(3, 0): 'D', (6, 6): 'R'})
        self.assertEqual(getattr(self.m, 'pos_válidas_para')('T', jogo), {
            (0, 1), (0, 2), (0, 4), (0, 5), (0, 7), (1, 1), (1, 3), (1, 4), (1, 5), (1, 7),
            (2, 2), (2, 3), (2, 4), (2, 5), (2, 7), (4, 2), (4, 3), (4, 4), (4, 5), (4, 7),
            (5, 1), (5, 3), (5, 4), (7, 1), (7, 2), (7, 3)})

    def test_faz_jogada_e_jogo_acabou(self):
        jogo = jogo_rainhas('DRRT', 'DDRT', {(3, 0): 'D', (6, 6): 'R'})
        self.assertIsNone(self.m.faz_jogada(jogo, 'primeiro', 'T', (1, 7)))
        self.assertEqual(jogo, jogo_rainhas('DRR', 'DDRT', {(3, 0): 'D', (6, 6): 'R', (1, 7): 'T'}))
        self.assertIs(self.m.jogo_acabou(jogo, 'primeiro'), False)
        jogo = jogo_rainhas('DRR', 'DRT', {(3, 0): 'D', (6, 6): 'R', (1, 7): 'T', (7, 1): 'D'})
        self.assertEqual(self.m.jogo_acabou(jogo, 'segundo'), 'primeiro')

    def test_cria_jogo(self):
        self.assertEqual(self.m.cria_jogo(), {'tamanho': 8, 'primeiro': ['D', 'D', 'D', 'D'], 'segundo': ['D', 'D', 'D', 'D'],
                                              'ocupadas': {}, 'nomes': {'primeiro': 'primeiro', 'segundo': 'segundo'}})
        jogo = self.m.cria_jogo('x-random', 'João', 'Maria')
        # The pieces are random: the printed ['B', 'C', 'C', 'C', 'T'] is one draw.
        self.assertEqual(jogo['tamanho'], 8)
        self.assertEqual(jogo['ocupadas'], {})
        self.assertEqual(jogo['nomes'], {'primeiro': 'João', 'segundo': 'Maria'})
        self.assertEqual(len(jogo['primeiro']), 5)
        self.assertEqual(jogo['primeiro'], jogo['segundo'])
        self.assertTrue(set(jogo['primeiro']) <= set('RDTBC'))

    def test_jogadores_e_torneio(self):
        m = self.m
        jogo = m.cria_jogo('impar', 'a', 'b')
        self.assertEqual((jogo['tamanho'], len(jogo['primeiro']), len(jogo['segundo'])), (13, 7, 6))
        apressado = m.jogador_apressado
        for nome in ('jogador_roleta', 'jogador_guloso', 'jogador_gulosa', 'jogador_asfixiante'):
            f = getattr(m, nome, None)
            if f is None:
                continue
            with self.subTest(jogador=nome):
                jogo = m.cria_jogo()
                peca, casa = f(jogo, 'primeiro')
                self.assertIn(casa, getattr(m, 'pos_válidas_para')(peca, jogo))
        r = m.torneio({'apressado': apressado, 'roleta': m.jogador_roleta}, [('tradicional', 2)])
        self.assertEqual(set(r), {'apressado', 'roleta'})
        self.assertTrue(all(0 <= v <= 100 for v in r.values()))


class RainhasConjuntos(Rainhas, unittest.TestCase):
    projeto = 'rainhas_conjuntos'


class RainhasClasses(Rainhas, unittest.TestCase):
    projeto = 'rainhas_classes'


if __name__ == '__main__':
    unittest.main()
