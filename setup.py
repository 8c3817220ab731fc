# The standard nbdev 2 setup.py: every setting lives in settings.ini; edit there, not here.
from configparser import ConfigParser
import setuptools, shlex

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, f"missing expected setting: {o}"
setup_cfg = {o: cfg[o] for o in cfg_keys}

licenses = {
    'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License'),
    'mit': ('MIT License', 'OSI Approved :: MIT License'),
}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable',
            '6 - Mature', '7 - Inactive']
py_versions = '3.9 3.10 3.11 3.12 3.13'.split()

requirements = shlex.split(cfg.get('requirements', ''))
if cfg.get('pip_requirements'): requirements += shlex.split(cfg.get('pip_requirements', ''))
min_python = cfg['min_python']
lic = licenses.get(cfg['license'].lower(), (cfg['license'], None))
dev_requirements = shlex.split(cfg.get('dev_requirements') or '')
docs_requirements = shlex.split(cfg.get('docs_requirements') or '')
sweep_requirements = shlex.split(cfg.get('sweep_requirements') or '')
opacus_requirements = shlex.split(cfg.get('opacus_requirements') or '')
allocation_requirements = shlex.split(cfg.get('allocation_requirements') or '')

setuptools.setup(
    name=cfg['lib_name'],
    license=lic[0],
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'].title(),
                 'Natural Language :: ' + cfg['language'].title(),
                 ] + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]]
                   + (['License :: ' + lic[1]] if lic[1] else []),
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=[cfg['lib_path'], cfg['lib_path'] + '.*']),
    include_package_data=True,
    package_data={cfg['lib_path']: ['data/*']},
    install_requires=requirements,
    extras_require={'dev': dev_requirements, 'docs': docs_requirements, 'sweep': sweep_requirements,
                    'opacus': opacus_requirements, 'allocation': allocation_requirements},
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d'],
    },
    **setup_cfg)
