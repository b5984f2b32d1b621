import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { answerCpPost } from '../../common/cp-form-post';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { wantsHtml } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpListQuery } from '../../common/cp-list.query';
import { FlowsService, FlowWithSecret } from '../flows.service';
import { FlowFormDto, FlowToggleDto } from './flow-form.dto';
import { actionsText, describeFlow, describeRun, WEBHOOK_PATH } from './flow-views';

/** What a new flow's form starts with: one action of each kind shows the format (docs/http-contract.md). */
const EXAMPLE_ACTIONS = JSON.stringify(
  [
    { type: 'setOrderStatus', orderNumber: '{{webhook.orderNumber}}', status: 'processing' },
    { type: 'log', message: 'Order {{webhook.orderNumber}} is being processed' },
  ],
  null,
  2,
);

interface FormState {
  flow?: ReturnType<typeof describeFlow>;
  name: string;
  actions: string;
  enabled?: boolean;
  errors?: FieldErrors;
  problem?: string;
}

/**
 * Flows in the CP, behind the `accessFlows` permission: the list, create and edit (actions as JSON), enable
 * and disable, secret rotation and the runs log. A webhook secret is shown in full once, on the page that
 * answers its creation or rotation, and is stored nowhere to be shown again.
 */
@ApiExcludeController()
@CpPermission('accessFlows')
@Controller('flows')
export class FlowsCpController {
  constructor(
    private readonly flows: FlowsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Res() res: Response): Promise<void> {
    const flows = (await this.flows.list()).map(describeFlow);
    res.render('cp/flows', { layout: 'cp', title: 'Flows', flows });
  }

  @Get('new')
  form(@Res() res: Response): void {
    this.renderForm(res, { name: '', actions: EXAMPLE_ACTIONS, enabled: true });
  }

  @Post()
  @HttpCode(200)
  async create(@Body() body: FlowFormDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const enabled = body.enabled !== undefined;
    try {
      this.answerSecret(
        req,
        res,
        await this.flows.create({ name: body.name ?? '', actions: body.actions ?? '' }, enabled),
      );
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      this.renderRefused(res, error, { name: body.name ?? '', actions: body.actions ?? '', enabled });
    }
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    const flow = await this.flows.get(id);
    this.renderForm(res, { flow: describeFlow(flow), name: flow.name, actions: actionsText(flow) });
  }

  @Post(':id')
  async update(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: FlowFormDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const flow = describeFlow(await this.flows.get(id));
    const input = { name: body.name ?? '', actions: body.actions ?? '' };
    return answerCpPost(req, res, {
      page: this.url(String(id)),
      action: async () => ({ message: `Flow "${(await this.flows.update(id, input)).name}" saved.` }),
      refused: (error) => this.renderRefused(res, error, { flow, ...input }),
    });
  }

  @Post(':id/enabled')
  toggle(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: FlowToggleDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return answerCpPost(req, res, {
      page: this.url(''),
      action: async () => {
        const flow = await this.flows.setEnabled(id, body.enabled === 'true');
        return { message: `Flow "${flow.name}" ${flow.enabled ? 'enabled' : 'disabled'}.`, enabled: flow.enabled };
      },
    });
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  async rotate(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.answerSecret(req, res, await this.flows.rotateSecret(id));
  }

  @Get(':id/runs')
  async runs(@Param('id', ParseIntPipe) id: number, @Query() query: CpListQuery, @Res() res: Response): Promise<void> {
    const flow = describeFlow(await this.flows.get(id));
    const page = query.pageNumber;
    const { runs, total, pages } = await this.flows.runs(id, page);
    res.render('cp/flows-runs', {
      layout: 'cp',
      title: `Runs of ${flow.name}`,
      flow,
      runs: runs.map(describeRun),
      total,
      page,
      pages,
      prevPage: page > 1 ? page - 1 : null,
      nextPage: page < pages ? page + 1 : null,
    });
  }

  /** The one page that shows a secret in full; never cached, and never written anywhere else. */
  private answerSecret(req: Request, res: Response, { flow, secret }: FlowWithSecret): void {
    const webhookUrl = `${this.config.baseUrl}${WEBHOOK_PATH}/${secret}`;
    res.setHeader('Cache-Control', 'no-store');
    if (!wantsHtml(req)) {
      res.json({ success: true, flow: describeFlow(flow), secret, webhookUrl });
      return;
    }
    res.render('cp/flows-secret', {
      layout: 'cp',
      title: `Webhook secret of ${flow.name}`,
      flow: describeFlow(flow),
      secret,
      webhookUrl,
    });
  }

  private renderRefused(res: Response, error: AppError, state: FormState): void {
    this.renderForm(res.status(400), { ...state, errors: error.fields ?? {}, problem: error.message });
  }

  private renderForm(res: Response, state: FormState): void {
    const title = state.flow ? `Flow ${state.flow.name}` : 'New flow';
    res.render('cp/flows-form', { layout: 'cp', title, ...state, errors: state.errors ?? {} });
  }

  private url(path: string): string {
    return `/${this.config.cpTrigger}/flows${path ? `/${path}` : ''}`;
  }
}
